// `npm run cli -- <command> [--flag value ...]`: operator commands against the configured
// database (DATABASE_URL, or the embedded server under DATA_DIR, shared with a running service).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { StaffProvisioningService } from './modules/identity';
import { MonthlyTotalsFolding } from './modules/ledger';
import { importLedger } from './ledger-import';
import { SystemWrites } from './platform/audit/system-writes';
import { ConfigError, loadConfig, RuntimeConfig } from './platform/config/app-config';
import { startEmbeddedParts } from './platform/embedded/embedded-parts';
import { distributeSchema } from './platform/database/distribute-schema';
import { SCHEMA } from './schema';

type App = Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;

interface Command {
  usage: string;
  /** Runs on the database alone, without the application (no Nest context, no start-up work). */
  standalone?: boolean;
  run(flags: Record<string, string>, app: App, args: string[], config: RuntimeConfig): Promise<string>;
}

const COMMANDS: Record<string, Command> = {
  'users:create-staff': {
    usage: 'users:create-staff --email E --password P [--name N]   (D10: creates a staff User unless the e-mail exists)',
    async run(flags, app) {
      if (!flags.email || !flags.password) throw new Error('--email and --password are required');
      // A unit of work with its audit row (actor system:cli); nothing created, nothing recorded.
      const unchanged = new Error('unchanged');
      const result = await app
        .get(SystemWrites)
        .run({ actor: 'system:cli', action: 'user.create_staff', resourceType: 'user', entityId: null }, async () => {
          const outcome = await app.get(StaffProvisioningService).ensureStaff(flags.email, flags.password, flags.name ?? 'Staff');
          if (!outcome.created) throw Object.assign(unchanged, { outcome });
          return { id: outcome.userId, ...outcome };
        })
        .catch((error: unknown) => {
          if (error === unchanged) return (unchanged as Error & { outcome: { created: boolean; userId: string } }).outcome;
          throw error;
        });
      return result.created
        ? `Created staff User ${flags.email} (${result.userId})`
        : `A User with e-mail ${flags.email} already exists (${result.userId}); nothing changed`;
    },
  },
  'db:distribute': {
    usage:
      'db:distribute   (D94: on a Citus coordinator, Entity tables distributed by entity_id, shared tables reference tables; idempotent; refused without Citus)',
    standalone: true,
    run: (_flags, _app, _args, config) => distributeSchema(config.databaseUrl, SCHEMA.migrations),
  },
  'ledger:import': {
    usage:
      'ledger:import FILE --entity ID [--batch N] [--parallel N] [--format jsonl|csv]   (#25: entries of JSON Lines or CSV posted in batches of N, default 1000, all or nothing each, N at once, default 2; entries already in the books skipped by id)',
    run: (flags, app, args) => importLedger(flags, app, args),
  },
  'ledger:fold-totals': {
    usage:
      'ledger:fold-totals [--entity ID]   (#36: folds the monthly totals of months before the current business month into one row per account, Book and month, of the Entity or of every Entity; the figures do not change)',
    async run(flags, app) {
      if (flags.entity !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(flags.entity)) throw new Error('--entity must be an Entity id (a UUID)');
      const started = Date.now();
      const done = await app.get(MonthlyTotalsFolding).foldAll(flags.entity ?? null);
      const busy = done.busy > 0 ? `; ${done.busy} Entities skipped: another fold of them was running` : '';
      return `Folded ${done.accountRows} account and ${done.partnerRows} partner monthly-total rows of ${done.entities} Entities (months before ${done.before}) in ${done.rounds} rounds, ${Date.now() - started} ms${busy}`;
    },
  },
};

function parseFlags(args: string[]): { flags: Record<string, string>; positional: string[] } {
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]);
    if (!match) {
      if (args[i].startsWith('-')) throw new Error(`unexpected argument ${args[i]}`);
      positional.push(args[i]);
      continue;
    }
    flags[match[1]] = match[2] ?? args[++i] ?? '';
  }
  return { flags, positional };
}

const HELP = new Set(['--help', '-h', 'help']);

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? COMMANDS[name] : undefined;
  const usage = `Usage: npm run cli -- <command> [flags]\n\nCommands:\n${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join('\n')}\n\n\`npm run cli -- <command> --help\` prints one command's usage.\n`;
  if (!name || HELP.has(name)) {
    process.stdout.write(usage);
    return 0;
  }
  if (!command) {
    process.stderr.write(`unknown command ${name}\n\n${usage}`);
    return 1;
  }
  if (rest.some((arg) => HELP.has(arg))) {
    process.stdout.write(`Usage: npm run cli -- ${command.usage}\n`);
    return 0;
  }
  const { flags, positional } = parseFlags(rest);
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', BOOTSTRAP_STAFF_EMAIL: '', BOOTSTRAP_STAFF_PASSWORD: '' });
  const parts = await startEmbeddedParts(config, () => undefined);
  if (command.standalone) {
    try {
      process.stdout.write(`${await command.run(flags, undefined as unknown as App, positional, parts.config)}\n`);
      return 0;
    } finally {
      await parts.stop();
    }
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(parts.config), { logger: ['error'], abortOnError: false });
  try {
    process.stdout.write(`${await command.run(flags, app, positional, parts.config)}\n`);
    return 0;
  } finally {
    await app.close();
    await parts.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
