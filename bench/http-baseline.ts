import { formatLoad, runLoad } from './lib/load';
import { startService } from './lib/service';

/** The cost of the request pipeline alone: GET /api/health (a database ping and an object-store HEAD). */
export async function httpBaseline(args: string[]): Promise<void> {
  const seconds = Number(args[args.indexOf('--seconds') + 1]) || 10;
  const service = await startService();
  try {
    const result = await runLoad({
      baseUrl: service.baseUrl,
      connections: 8,
      seconds,
      next: () => ({ method: 'GET', path: '/api/health' }),
      expectStatus: 200,
    });
    process.stdout.write(`${formatLoad('GET /api/health, 8 connections', result)}; service RSS ${service.rssMiB()} MiB\n`);
  } finally {
    await service.stop();
  }
}
