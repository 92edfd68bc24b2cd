import { z } from 'zod';

/**
 * The service's configuration, read once from the environment and validated (the only place
 * that reads `process.env`). Every variable is documented in README.md.
 */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** D94: `citus` distributes the schema at start-up, after the migrations (as `db:distribute` does). */
  databaseDistribution: 'none' | 'citus';
  s3: {
    endpoint: string | undefined;
    bucket: string;
    region: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
  };
  businessTimezone: string;
  appBaseUrl: string;
  sessionSecret: string | undefined;
  cookieSecure: boolean;
  logLevel: string;
  bootstrapStaff: { email: string; password: string } | undefined;
  apiKeyRateLimitPerHour: number;
  setPasswordLinkTtlHours: number;
  /** The most lines one answer of the unpaged line routes (lines list, partner ledger) holds. */
  linesPerAnswerMax: number;
  /** Seconds between sweeps of unconfirmed and discarded attachment uploads; 0: no periodic sweep. */
  attachmentSweepIntervalSeconds: number;
  /** Issue 36c: seconds between rounds of folding past months' monthly totals; 0: no periodic fold. */
  ledgerTotalsFoldIntervalSeconds: number;
  /** Bank connections and feeds (D67, D67a, D69, D77). */
  bankFeeds: BankFeedsConfig;
  /** D2a: heavy reads (unpaged lines, partner ledger, reports) running at once per User and per instance. */
  heavyReadsPerUser: number;
  heavyReadsTotal: number;
  /** D2b: the nice value an import-parsing worker thread takes on Linux (0: the service's own priority). */
  importParseNice: number;
  /** Express `trust proxy` (D11a): which peers' X-Forwarded-For names the client address. */
  trustProxy: boolean | number | string;
  /** Serve Swagger UI at /api/docs (the OpenAPI document at /api/docs-json is always served). */
  openApiUi: boolean;
  /** D86: the OpenAI-compatible chat-completions server of the agent gateway. */
  agents: AgentsConfig;
  /** D80: the FX provider and its settings. */
  fx: {
    provider: 'offline' | 'cmf';
    cmfApiKey: string | undefined;
    cmfBaseUrl: string;
    timeoutMs: number;
  };
}

export interface BankFeedsConfig {
  /** 32 bytes (64 hex digits or base64) encrypting link tokens; kept in DATA_DIR when unset outside production. */
  credentialsEncryptionKey: string | undefined;
  sandboxEnabled: boolean;
  /** Sandbox movements per business day and account (D77: five). */
  sandboxDailyMovements: number;
  /** Sandbox failure injection: every movements read fails at this page (0: never). */
  sandboxFailAtPage: number;
  fintocSecretKey: string | undefined;
  fintocBaseUrl: string;
  /** Fintoc's public key for its widget, given back with each link intent. */
  fintocPublicKey: string;
  /** Time one Fintoc call may take with its retries (429, 5xx) before it fails. */
  fintocRequestBudgetMs: number;
  /** Periodic sync of every feed (0: off). */
  syncIntervalMinutes: number;
}

export interface AgentsConfig {
  /** Base of the OpenAI-compatible API (`POST {baseUrl}/chat/completions`); undefined: not configured. */
  llmBaseUrl: string | undefined;
  /** Sent as `Authorization: Bearer` when set. */
  llmApiKey: string | undefined;
  /** Model ids in configured order; the first is the default. */
  models: string[];
  /** Most tool calls of one turn. */
  maxToolCalls: number;
  /** Bound of each request to the model, in milliseconds (D88a). */
  llmTimeoutMs: number;
  /** Where the gateway reaches the service itself; undefined: the address it listens on. */
  serviceUrl: string | undefined;
}

/** Configuration after the embedded parts (if any) were started: every connection is known. */
export interface RuntimeConfig extends AppConfig {
  databaseUrl: string;
  sessionSecret: string;
  s3: AppConfig['s3'] & { endpoint: string | undefined };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const optionalBooleanString = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    const lowered = v.toLowerCase();
    if (['true', '1', 'yes'].includes(lowered)) return true;
    if (['false', '0', 'no'].includes(lowered)) return false;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be true or false (got "${v}")` });
    return z.NEVER;
  });

const booleanString = (fallback: boolean) => optionalBooleanString.transform((v) => v ?? fallback);

const integerString = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be an integer from ${min} to ${max} (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

const urlString = (protocols: string[]) =>
  optionalString.superRefine((v, ctx) => {
    if (v === undefined) return;
    try {
      const url = new URL(v);
      if (!protocols.includes(url.protocol)) throw new Error();
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be a ${protocols.join(' or ')} URL` });
    }
  });

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).optional().default('development'),
  PORT: integerString(3000, 0, 65535),
  HOST: optionalString,
  DATA_DIR: optionalString,
  DATABASE_URL: urlString(['postgres:', 'postgresql:']),
  DATABASE_POOL_SIZE: integerString(10, 1, 200),
  DATABASE_DISTRIBUTION: z.enum(['none', 'citus']).optional().default('none'),
  S3_ENDPOINT: urlString(['http:', 'https:']),
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanString(true),
  BUSINESS_TIMEZONE: optionalString.refine((v) => v === undefined || isTimeZone(v), {
    message: 'must be an IANA time zone such as America/Santiago',
  }),
  APP_BASE_URL: urlString(['http:', 'https:']),
  SESSION_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  COOKIE_SECURE: booleanString(false),
  LOG_LEVEL: z.enum(LOG_LEVELS).optional().default('info'),
  BOOTSTRAP_STAFF_EMAIL: optionalString.refine((v) => v === undefined || /^[^\s@]+@[^\s@]+$/.test(v), {
    message: 'must be an e-mail address',
  }),
  BOOTSTRAP_STAFF_PASSWORD: optionalString.refine((v) => v === undefined || v.length >= 12, {
    message: 'must be at least 12 characters',
  }),
  API_KEY_RATE_LIMIT_PER_HOUR: integerString(5000, 1, 10_000_000),
  SET_PASSWORD_LINK_TTL_HOURS: integerString(24, 1, 24 * 30),
  LINES_PER_ANSWER_MAX: integerString(50_000, 2, 1_000_000),
  ATTACHMENT_SWEEP_INTERVAL_SECONDS: integerString(60, 0, 86_400),
  LEDGER_TOTALS_FOLD_INTERVAL_SECONDS: integerString(30, 0, 86_400),
  CREDENTIALS_ENCRYPTION_KEY: optionalString.refine((v) => v === undefined || encryptionKeyBytes(v) !== null, {
    message: 'must be 32 bytes written as 64 hex digits or in base64',
  }),
  BANK_SANDBOX_ENABLED: booleanString(true),
  BANK_SANDBOX_DAILY_MOVEMENTS: integerString(5, 0, 10_000),
  BANK_SANDBOX_FAIL_AT_PAGE: integerString(0, 0, 1_000_000),
  FINTOC_SECRET_KEY: optionalString,
  FINTOC_BASE_URL: urlString(['http:', 'https:']),
  FINTOC_PUBLIC_KEY: optionalString,
  FINTOC_REQUEST_BUDGET_MS: integerString(20_000, 1, 600_000),
  BANK_SYNC_INTERVAL_MINUTES: integerString(0, 0, 7 * 24 * 60),
  HEAVY_READS_PER_USER: integerString(2, 1, 1000),
  HEAVY_READS_TOTAL: integerString(8, 1, 10_000),
  IMPORT_PARSE_NICE: integerString(10, 0, 19),
  OPENAPI_UI: optionalBooleanString,
  TRUST_PROXY: optionalString,
  AGENT_LLM_BASE_URL: urlString(['http:', 'https:']),
  AGENT_LLM_API_KEY: optionalString,
  AGENT_MODELS: optionalString.transform((v, ctx) => {
    if (v === undefined) return [];
    const models = v.split(',').map((m) => m.trim());
    if (models.some((m) => m === '' || m.length > 200 || /\s/.test(m))) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be model ids separated by commas, none empty or holding spaces' });
      return z.NEVER;
    }
    if (new Set(models).size !== models.length) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must not name a model twice' });
      return z.NEVER;
    }
    return models;
  }),
  AGENT_MAX_TOOL_CALLS: integerString(8, 1, 100),
  AGENT_LLM_TIMEOUT_MS: integerString(60_000, 100, 600_000),
  AGENT_SERVICE_URL: urlString(['http:', 'https:']),
  FX_PROVIDER: z.enum(['offline', 'cmf']).optional(),
  CMF_API_KEY: optionalString,
  CMF_BASE_URL: urlString(['http:', 'https:']),
  FX_PROVIDER_TIMEOUT_MS: integerString(10_000, 100, 600_000),
});

/** The 32 bytes of an AES-256 key written as 64 hex digits or in base64 (url-safe or not); null when not. */
export function encryptionKeyBytes(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

/** Reads and validates the environment; throws one ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.NODE_ENV === 'production' && e.DATABASE_URL && !e.SESSION_SECRET) {
    problems.push('SESSION_SECRET: required when NODE_ENV=production and DATABASE_URL is set');
  }
  if (e.NODE_ENV === 'production' && e.DATABASE_URL && !e.CREDENTIALS_ENCRYPTION_KEY) {
    problems.push('CREDENTIALS_ENCRYPTION_KEY: required when NODE_ENV=production and DATABASE_URL is set');
  }
  if (Boolean(e.BOOTSTRAP_STAFF_EMAIL) !== Boolean(e.BOOTSTRAP_STAFF_PASSWORD)) {
    problems.push('BOOTSTRAP_STAFF_EMAIL and BOOTSTRAP_STAFF_PASSWORD: set both or neither');
  }
  if (e.S3_ENDPOINT && !e.S3_BUCKET) {
    problems.push('S3_BUCKET: required when S3_ENDPOINT is set');
  }
  if (e.FX_PROVIDER === 'cmf' && !e.CMF_API_KEY) {
    problems.push('CMF_API_KEY: required when FX_PROVIDER=cmf');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const port = e.PORT;
  return {
    nodeEnv: e.NODE_ENV,
    port,
    host: e.HOST ?? '0.0.0.0',
    dataDir: e.DATA_DIR ?? './.data',
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseDistribution: e.DATABASE_DISTRIBUTION,
    s3: {
      endpoint: e.S3_ENDPOINT,
      bucket: e.S3_BUCKET ?? 'accounting',
      region: e.S3_REGION ?? 'us-east-1',
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    },
    businessTimezone: e.BUSINESS_TIMEZONE ?? 'America/Santiago',
    appBaseUrl: e.APP_BASE_URL ?? `http://localhost:${port}`,
    sessionSecret: e.SESSION_SECRET,
    cookieSecure: e.COOKIE_SECURE,
    logLevel: e.LOG_LEVEL,
    bootstrapStaff:
      e.BOOTSTRAP_STAFF_EMAIL && e.BOOTSTRAP_STAFF_PASSWORD
        ? { email: e.BOOTSTRAP_STAFF_EMAIL, password: e.BOOTSTRAP_STAFF_PASSWORD }
        : undefined,
    apiKeyRateLimitPerHour: e.API_KEY_RATE_LIMIT_PER_HOUR,
    setPasswordLinkTtlHours: e.SET_PASSWORD_LINK_TTL_HOURS,
    linesPerAnswerMax: e.LINES_PER_ANSWER_MAX,
    attachmentSweepIntervalSeconds: e.ATTACHMENT_SWEEP_INTERVAL_SECONDS,
    ledgerTotalsFoldIntervalSeconds: e.LEDGER_TOTALS_FOLD_INTERVAL_SECONDS,
    bankFeeds: {
      credentialsEncryptionKey: e.CREDENTIALS_ENCRYPTION_KEY,
      sandboxEnabled: e.BANK_SANDBOX_ENABLED,
      sandboxDailyMovements: e.BANK_SANDBOX_DAILY_MOVEMENTS,
      sandboxFailAtPage: e.BANK_SANDBOX_FAIL_AT_PAGE,
      fintocSecretKey: e.FINTOC_SECRET_KEY,
      fintocBaseUrl: (e.FINTOC_BASE_URL ?? 'https://api.fintoc.com').replace(/\/+$/, ''),
      fintocPublicKey: e.FINTOC_PUBLIC_KEY ?? '',
      fintocRequestBudgetMs: e.FINTOC_REQUEST_BUDGET_MS,
      syncIntervalMinutes: e.BANK_SYNC_INTERVAL_MINUTES,
    },
    heavyReadsPerUser: e.HEAVY_READS_PER_USER,
    heavyReadsTotal: e.HEAVY_READS_TOTAL,
    importParseNice: e.IMPORT_PARSE_NICE,
    openApiUi: e.OPENAPI_UI ?? e.NODE_ENV === 'development',
    trustProxy: trustProxySetting(e.TRUST_PROXY),
    agents: {
      llmBaseUrl: e.AGENT_LLM_BASE_URL?.replace(/\/+$/, ''),
      llmApiKey: e.AGENT_LLM_API_KEY,
      models: e.AGENT_MODELS,
      maxToolCalls: e.AGENT_MAX_TOOL_CALLS,
      llmTimeoutMs: e.AGENT_LLM_TIMEOUT_MS,
      serviceUrl: e.AGENT_SERVICE_URL?.replace(/\/+$/, ''),
    },
    fx: {
      provider: e.FX_PROVIDER ?? (e.CMF_API_KEY ? 'cmf' : 'offline'),
      cmfApiKey: e.CMF_API_KEY,
      cmfBaseUrl: e.CMF_BASE_URL ?? 'https://api.cmfchile.cl/api-sbifv3/recursos_api',
      timeoutMs: e.FX_PROVIDER_TIMEOUT_MS,
    },
  };
}

/**
 * TRUST_PROXY: unset: `loopback` (a proxy on the same host, the usual TLS front, names the
 * client); `false`: always the socket's address; `true`; a hop count; or addresses and subnets.
 */
function trustProxySetting(value: string | undefined): boolean | number | string {
  if (value === undefined) return 'loopback';
  if (value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
