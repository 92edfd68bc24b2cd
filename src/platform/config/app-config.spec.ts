import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('serves Swagger UI by default in development only, and reads OPENAPI_UI, heavy-read limits and TRUST_PROXY (issue 17)', () => {
    expect(loadConfig({}).openApiUi).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).openApiUi).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', OPENAPI_UI: 'true' }).openApiUi).toBe(true);
    expect(loadConfig({ OPENAPI_UI: 'no' }).openApiUi).toBe(false);
    expect(() => loadConfig({ OPENAPI_UI: 'maybe' })).toThrow(/OPENAPI_UI/);
    expect(loadConfig({})).toMatchObject({ heavyReadsPerUser: 2, heavyReadsTotal: 8, trustProxy: 'loopback' });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });

  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('./.data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.s3.endpoint).toBeUndefined();
    expect(config.businessTimezone).toBe('America/Santiago');
    expect(config.apiKeyRateLimitPerHour).toBe(5000);
    expect(config.logLevel).toBe('info');
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', BUSINESS_TIMEZONE: 'Mars/Olympus', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['PORT', 'BUSINESS_TIMEZONE', 'DATABASE_URL', 'LOG_LEVEL']) {
      expect(message).toContain(name);
    }
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('requires SESSION_SECRET in production with a real database', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db/x' })).toThrow(
      /SESSION_SECRET/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db/x', SESSION_SECRET: 'x'.repeat(32), CREDENTIALS_ENCRYPTION_KEY: 'ab'.repeat(32) }),
    ).not.toThrow();
  });

  it('requires CREDENTIALS_ENCRYPTION_KEY (32 bytes, hex or base64) in production with a real database; bank feed settings', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db/x', SESSION_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig(production)).toThrow(/CREDENTIALS_ENCRYPTION_KEY/);
    expect(() => loadConfig({ ...production, CREDENTIALS_ENCRYPTION_KEY: 'too-short' })).toThrow(/CREDENTIALS_ENCRYPTION_KEY/);
    expect(() => loadConfig({ ...production, CREDENTIALS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') })).not.toThrow();
    expect(loadConfig({}).bankFeeds).toEqual({
      credentialsEncryptionKey: undefined,
      sandboxEnabled: true,
      sandboxDailyMovements: 5,
      sandboxFailAtPage: 0,
      fintocSecretKey: undefined,
      fintocBaseUrl: 'https://api.fintoc.com',
      fintocPublicKey: '',
      fintocRequestBudgetMs: 20000,
      syncIntervalMinutes: 0,
    });
    expect(loadConfig({ FINTOC_BASE_URL: 'http://127.0.0.1:9999/', BANK_SANDBOX_ENABLED: 'false' }).bankFeeds).toMatchObject({ fintocBaseUrl: 'http://127.0.0.1:9999', sandboxEnabled: false });
  });

  it('reads booleans and integers strictly', () => {
    expect(loadConfig({ S3_FORCE_PATH_STYLE: 'false', API_KEY_RATE_LIMIT_PER_HOUR: '25000' })).toMatchObject({
      s3: { forcePathStyle: false },
      apiKeyRateLimitPerHour: 25000,
    });
    expect(() => loadConfig({ COOKIE_SECURE: 'maybe' })).toThrow(/COOKIE_SECURE/);
    expect(() => loadConfig({ API_KEY_RATE_LIMIT_PER_HOUR: '0' })).toThrow(/API_KEY_RATE_LIMIT_PER_HOUR/);
  });

  it('reads the agent gateway settings (D86) and names the bad ones', () => {
    expect(loadConfig({}).agents).toEqual({ llmBaseUrl: undefined, llmApiKey: undefined, models: [], maxToolCalls: 8, llmTimeoutMs: 60000, serviceUrl: undefined });
    expect(
      loadConfig({ AGENT_LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', AGENT_MODELS: 'qwen2.5:7b, llama3.1', AGENT_MAX_TOOL_CALLS: '3', AGENT_LLM_TIMEOUT_MS: '5000' }).agents,
    ).toMatchObject({ llmBaseUrl: 'http://127.0.0.1:11434/v1', models: ['qwen2.5:7b', 'llama3.1'], maxToolCalls: 3, llmTimeoutMs: 5000 });
    let error: unknown;
    try {
      loadConfig({ AGENT_LLM_BASE_URL: 'ftp://x', AGENT_MODELS: 'a,,b', AGENT_MAX_TOOL_CALLS: '0', AGENT_LLM_TIMEOUT_MS: 'soon' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toHaveLength(4);
    expect(() => loadConfig({ AGENT_MODELS: 'a,a' })).toThrow(/AGENT_MODELS/);
  });
});
