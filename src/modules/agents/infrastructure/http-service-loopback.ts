import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { LoopbackRequest, ServiceLoopback } from '../application/gateway-ports';
import type { OpenApiDocument } from '../domain/tools';
import { plainRequest } from './plain-http';

/** A tool request that takes longer than this is answered to the model as a failure. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Longest answer read from the service (the model is sent its first 20,000 characters). */
const MAX_ANSWER_BYTES = 64_000_000;

/**
 * Real HTTP requests to this very service: AGENT_SERVICE_URL when set, otherwise the address
 * its HTTP server listens on (a wildcard address is reached on loopback).
 */
@Injectable()
export class HttpServiceLoopback extends ServiceLoopback {
  private readonly serviceUrl: string | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(ConfigService) config: ConfigService<RuntimeConfig, true>,
  ) {
    super();
    this.serviceUrl = config.get('agents', { infer: true }).serviceUrl;
  }

  private baseUrl(): string {
    if (this.serviceUrl) return this.serviceUrl;
    const address = this.adapterHost.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null | undefined;
    if (!address || typeof address === 'string') throw new Error('the HTTP server is not listening on a TCP port; set AGENT_SERVICE_URL');
    const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  async request(request: LoopbackRequest): Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': request.apiKey };
    if (request.auditActor) headers['x-audit-actor'] = request.auditActor;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const { status, text } = await plainRequest(`${this.baseUrl()}${request.path}`, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      maxBytes: MAX_ANSWER_BYTES,
    });
    return { status, body: text };
  }

  async openApiDocument(): Promise<OpenApiDocument> {
    const response = await fetch(`${this.baseUrl()}/api/docs-json`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (response.status !== 200) throw new Error(`GET /api/docs-json answered ${response.status}`);
    return (await response.json()) as OpenApiDocument;
  }
}
