import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectRefused } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { Agent, BOOTSTRAP_STAFF, createEntity, createOrganization, mintKey, signInStaff, uniqueName } from './harness/world';
import { mountWebPages } from '../src/platform/web/web-pages';

/*
 * Issue 24: the pages people open in a browser (/admin, /set-password) and the CSRF rule on
 * session mutations. The screens themselves are driven in a browser by admin-browser.e2e-spec.ts.
 */

const OWN_ORIGIN = 'http://app.test'; // APP_BASE_URL of the test apps
const FOREIGN_ORIGIN = 'https://evil.example';

function scriptTagsOf(html: string): string[] {
  return html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? [];
}

describe('Admin screens and set-password page (issue 24)', () => {
  let t: TestApp;
  let staff: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    staff = await signInStaff(t);
  });
  afterAll(() => t.close());

  describe('pages and their security headers', () => {
    it.each([['/admin/'], ['/set-password?token=abc']])('serves %s as HTML under a strict Content-Security-Policy and the usual security headers', async (path) => {
      const res = await t.http.get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-powered-by']).toBeUndefined();
      // No inline script or style: every script is a file of this origin.
      const scripts = scriptTagsOf(res.text);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toMatch(/^<script\b[^>]*\ssrc="\/admin\/assets\/[^"]+\.js"[^>]*><\/script>$/);
      expect(res.text).not.toMatch(/<style\b|\sstyle=/i);
      expect(res.text).not.toMatch(/\son[a-z]+=/i);
    });

    it('serves the hashed assets the pages name, cached for good, with the same headers', async () => {
      const html = (await t.http.get('/admin/').expect(200)).text;
      const assets = [...html.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((match) => match[1]);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of assets) {
        const res = await t.http.get(asset).expect(200);
        expect(res.headers['content-type']).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
        expect(res.headers['cache-control']).toContain('immutable');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it('redirects /admin to /admin/ and answers 404 with the D1 envelope for a file that is not there', async () => {
      const redirect = await t.http.get('/admin').expect(301);
      expect(redirect.headers.location).toBe('/admin/');
      const missing = await t.http.get('/admin/assets/missing.js').expect(404);
      expect(missing.body).toMatchObject({ statusCode: 404, code: 'ROUTE_NOT_FOUND_ERROR' });
    });

    it('answers 503 with what to do when the screens were never built', async () => {
      const express = (await import('express')).default;
      const app = express();
      mountWebPages({ use: app.use.bind(app), useStaticAssets: () => undefined } as never, mkdtempSync(join(tmpdir(), 'no-web-')));
      const server = app.listen(0);
      try {
        const { default: request } = await import('supertest');
        const res = await request(server).get('/admin/').expect(503);
        expect(res.text).toContain('npm run build');
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      } finally {
        server.close();
      }
    });

    it('puts no page header on the API (its answers are JSON, not pages)', async () => {
      const res = await staff.get('/api/auth/session').expect(200);
      expect(res.headers['content-security-policy']).toBeUndefined();
    });
  });

  describe('CSRF: session mutations from another site are refused', () => {
    it('refuses a sign-in posted from another origin with 403 PERMISSION_DENIED_ERROR and starts no session', async () => {
      const res = await expectRefused(
        t,
        ['user_sessions', 'audit_trail'],
        t.http.post('/api/auth/sign-in/email').set('origin', FOREIGN_ORIGIN).send(BOOTSTRAP_STAFF),
        403,
        'PERMISSION_DENIED_ERROR',
      );
      expect(res.body.params).toEqual({ header: 'origin' });
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a mutation of a signed-in staff User sent from another origin (Origin, Origin: null, or Sec-Fetch-Site) and writes nothing', async () => {
      const tables = ['organizations', 'audit_trail'];
      const body = () => ({ name: uniqueName('Csrf') });
      await expectRefused(t, tables, staff.post('/api/organizations').set('origin', FOREIGN_ORIGIN).send(body()), 403, 'PERMISSION_DENIED_ERROR');
      await expectRefused(t, tables, staff.post('/api/organizations').set('origin', 'null').send(body()), 403, 'PERMISSION_DENIED_ERROR');
      await expectRefused(t, tables, staff.post('/api/organizations').set('sec-fetch-site', 'cross-site').send(body()), 403, 'PERMISSION_DENIED_ERROR');
      await expectRefused(t, tables, staff.post('/api/organizations').set('sec-fetch-site', 'same-site').send(body()), 403, 'PERMISSION_DENIED_ERROR');
      const organizationId = await createOrganization(staff);
      await expectRefused(t, ['organizations', 'audit_trail'], staff.delete(`/api/organizations/${organizationId}`).set('origin', FOREIGN_ORIGIN), 403, 'PERMISSION_DENIED_ERROR');
      await expectRefused(t, ['user_sessions', 'audit_trail'], staff.post('/api/auth/sign-out').set('origin', FOREIGN_ORIGIN), 403, 'PERMISSION_DENIED_ERROR');
    });

    it("accepts the service's own origin (APP_BASE_URL's, or the one the request was addressed to) and browsers' same-origin requests", async () => {
      await staff.post('/api/organizations').set('origin', OWN_ORIGIN).send({ name: uniqueName('Own') }).expect(201);
      const server = t.app.getHttpServer();
      const address = server.address() ?? (await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address()))));
      const port = (address as { port: number }).port;
      await staff.post('/api/organizations').set('host', `127.0.0.1:${port}`).set('origin', `http://127.0.0.1:${port}`).send({ name: uniqueName('Host') }).expect(201);
      await staff.post('/api/organizations').set('sec-fetch-site', 'same-origin').send({ name: uniqueName('Same') }).expect(201);
      // Another port of the same host is another origin.
      await staff.post('/api/organizations').set('host', `127.0.0.1:${port}`).set('origin', `http://127.0.0.1:${port + 1}`).send({ name: uniqueName('Port') }).expect(403);
    });

    it('leaves reads alone and API clients without Origin (the tests, curl) unaffected', async () => {
      await staff.get('/api/organizations').set('origin', FOREIGN_ORIGIN).expect(200);
      await staff.post('/api/organizations').send({ name: uniqueName('Plain') }).expect(201);
    });

    it('judges an API key request by the key alone, whatever its Origin', async () => {
      const organizationId = await createOrganization(staff);
      const { key } = await mintKey(staff);
      await t.http
        .post('/api/entities')
        .set('x-api-key', key)
        .set('x-audit-actor', 'sync')
        .set('origin', FOREIGN_ORIGIN)
        .send({ id: randomUUID(), name: uniqueName('Keyed'), country: 'CL', taxId: '76.086.428-5', currency: 'CLP', organizationId })
        .expect(201);
      await createEntity(staff, organizationId);
    });

    it('refuses a set-password posted from another origin without consuming the link', async () => {
      const id = randomUUID();
      await staff.post('/api/onboarding/users').send({ id, email: `csrf-${id.slice(0, 8)}@example.test`, name: 'Csrf Target', role: 'client' }).expect(201);
      const link = await staff.post(`/api/onboarding/users/${id}/set-password-link`).expect(201);
      const token = new URL(link.body.url).searchParams.get('token');
      await expectRefused(
        t,
        ['users', 'set_password_tokens', 'audit_trail'],
        t.http.post('/api/auth/set-password').set('origin', FOREIGN_ORIGIN).send({ token, newPassword: 'a-good-long-password' }),
        403,
        'PERMISSION_DENIED_ERROR',
      );
      await t.http.post('/api/auth/set-password').set('origin', OWN_ORIGIN).send({ token, newPassword: 'a-good-long-password' }).expect(204);
    });
  });
});

// Keeps the contract's password rules and the service's in step (the set-password page shows the contract's).
describe('password rules shown by the set-password page', () => {
  it('are the rules the service enforces', async () => {
    const { PASSWORD_RULES } = await import('../libs/contracts/src');
    const { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } = await import('../src/modules/identity/domain/user');
    expect(PASSWORD_RULES).toEqual({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH });
  });
});

