import { randomUUID } from 'node:crypto';
import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { Audit } from '../src/platform/audit/audit.decorator';
import { TodoAccess } from '../src/platform/auth/decorators';
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

/** A route that exists only in this test, to drive the To-do rule (D17) before the to-do module. */
@Controller('entities/:entityId/test-todos')
class TodoProbeController {
  @Get()
  @TodoAccess()
  @ApiOkResponse({ description: 'probe' })
  list(@Param('entityId') entityId: string) {
    return { entityId };
  }

  @Post()
  @TodoAccess()
  @Audit('probe.todo', 'todo')
  @ApiOkResponse({ description: 'probe' })
  create(@Param('entityId') entityId: string) {
    return { entityId };
  }
}

describe('To-do access (D16, D17)', () => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    ({ t, world } = await createWorldApp({ extraControllers: [TodoProbeController] }));
  });
  afterAll(() => t.close());

  it('admits global staff and staff members only, reading or writing', async () => {
    await checkAccessMatrix(t, world, { method: 'get', path: (id) => `/api/entities/${id}/test-todos`, todo: true });
    await checkAccessMatrix(t, world, { method: 'post', path: (id) => `/api/entities/${id}/test-todos`, todo: true });
  });
});
