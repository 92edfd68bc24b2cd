import { randomUUID } from 'node:crypto';
import { checkAccessMatrix, MatrixRoute } from './harness/access-matrix';
import type { TestApp } from './harness/test-app';
import { createWorldApp, World } from './harness/world';

describe('Entity routes: the access matrix', () => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    ({ t, world } = await createWorldApp());
  });
  afterAll(() => t.close());

  const routes: MatrixRoute[] = [
    { method: 'get', path: (id) => `/api/entities/${id}` },
    { method: 'get', path: (id) => `/api/entities/${id}/editability` },
    { method: 'get', path: (id) => `/api/entities/${id}/audit-trail` },
    { method: 'patch', path: (id) => `/api/entities/${id}`, body: () => ({ name: `Renamed ${randomUUID().slice(0, 6)}` }) },
    { method: 'patch', path: (id) => `/api/entities/${id}/ledger-lock-date`, body: () => ({ ledgerLockDate: '2020-12-31' }) },
    { method: 'patch', path: (id) => `/api/entities/${id}/parent`, body: () => ({ parentEntityId: null }), staffOnly: true },
    { method: 'patch', path: (id) => `/api/entities/${id}/accounting-policies`, body: () => ({ accountingPolicies: 'IFRS for SMEs' }), staffOnly: true },
  ];

  it.each(routes.map((route) => [`${route.method.toUpperCase()} ${route.path(':entityId')}`, route] as const))('%s', async (_label, route) => {
    await checkAccessMatrix(t, world, route);
  });

  it('PATCH /api/entities/:entityId/organization is staff-only', async () => {
    await checkAccessMatrix(t, world, {
      method: 'patch',
      path: (id) => `/api/entities/${id}/organization`,
      body: () => ({ organizationId: world.organizationId }),
      staffOnly: true,
    });
  });
});
