import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createTestApp, TestApp, TestAppOptions } from './test-app';

/** The staff User every test app starts with (BOOTSTRAP_STAFF_* in testConfig). */
export const BOOTSTRAP_STAFF = { email: 'staff@example.test', password: 'staff-password-123' };

export type Agent = TestAgent;

/** An ISO 8601 date-time in UTC with milliseconds, as the API writes every instant. */
export const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `label` with a random suffix, for names that must not collide within a test database. */
export function uniqueName(label: string): string {
  return `${label} ${randomUUID().slice(0, 8)}`;
}

/** The id of the bootstrap staff User. */
export async function bootstrapStaffId(t: TestApp): Promise<string> {
  const [row] = await t.sql<{ id: string }>('SELECT id FROM users WHERE email = $1', [BOOTSTRAP_STAFF.email]);
  return row.id;
}

/** A supertest agent that keeps the session cookie of a signed-in User. */
export async function signIn(t: TestApp, email: string, password: string): Promise<Agent> {
  const agent = request.agent(t.app.getHttpServer());
  const res = await agent.post('/api/auth/sign-in/email').send({ email, password });
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return agent;
}

export function signInStaff(t: TestApp): Promise<Agent> {
  return signIn(t, BOOTSTRAP_STAFF.email, BOOTSTRAP_STAFF.password);
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: 'staff' | 'client';
  agent: Agent;
}

let counter = 0;

/** Onboards a User through the API (create, set-password link, set password) and signs them in. */
export async function onboardUser(t: TestApp, staff: Agent, role: 'staff' | 'client' = 'client', label = 'user'): Promise<TestUser> {
  const id = randomUUID();
  const email = `${label}-${++counter}-${id.slice(0, 8)}@example.test`;
  const password = `password-of-${id.slice(0, 12)}`;
  await staff.post('/api/onboarding/users').send({ id, email, name: `${label} ${counter}`, role }).expect(201);
  const link = await staff.post(`/api/onboarding/users/${id}/set-password-link`).expect(201);
  const token = new URL(link.body.url).searchParams.get('token');
  await t.http.post('/api/auth/set-password').send({ token, newPassword: password }).expect(204);
  return { id, email, password, role, agent: await signIn(t, email, password) };
}

export async function createOrganization(staff: Agent, name = uniqueName('Org')): Promise<string> {
  const res = await staff.post('/api/organizations').send({ name }).expect(201);
  return res.body.id;
}

export async function createEntity(
  staff: Agent,
  organizationId: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; organizationId: string }> {
  const id = randomUUID();
  const res = await staff
    .post('/api/entities')
    .send({ id, name: `Entity ${id.slice(0, 8)}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP', organizationId, ...overrides })
    .expect(201);
  return { id: res.body.id, organizationId: res.body.organizationId };
}

/** Creates a ledger account in the Entity and answers its id. */
export async function createLedgerAccount(
  staff: Agent,
  entityId: string,
  account: { code: string; type: string; tracking: string; subtype?: string | null; name?: string },
): Promise<string> {
  const id = randomUUID();
  const { code, type, tracking, subtype = null, name = code } = account;
  await staff.post(`/api/entities/${entityId}/ledger/accounts`).send({ id, name, code, type, tracking, subtype }).expect(201);
  return id;
}

export async function grantMembership(staff: Agent, userId: string, organizationId: string, role: 'staff' | 'client' | 'viewer'): Promise<void> {
  await staff.post(`/api/onboarding/users/${userId}/memberships`).send({ organizationId, role }).expect(204);
}

export async function mintKey(agent: Agent, body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const res = await agent.post('/api/auth/api-keys').send({ name: 'test key', ...body }).expect(201);
  return { id: res.body.id, key: res.body.key };
}

/**
 * Everyone the access matrix asks: global staff; in Organization A (holding `entityId`) a client
 * member, a viewer and a staff member; a client outside it; and keys.
 */
export interface World {
  staff: Agent;
  organizationId: string;
  entityId: string;
  otherOrganizationId: string;
  otherEntityId: string;
  clientMember: TestUser;
  viewerMember: TestUser;
  staffMember: TestUser;
  outsider: TestUser;
  keys: {
    member: string;
    memberReadOnly: string;
    revoked: string;
    /** A staff User's key confined to the other Entity. */
    scopedToOtherEntity: string;
  };
}

export async function buildWorld(t: TestApp): Promise<World> {
  const staff = await signInStaff(t);
  const organizationId = await createOrganization(staff);
  const otherOrganizationId = await createOrganization(staff);
  const { id: entityId } = await createEntity(staff, organizationId);
  const { id: otherEntityId } = await createEntity(staff, otherOrganizationId);
  const clientMember = await onboardUser(t, staff, 'client', 'client');
  const viewerMember = await onboardUser(t, staff, 'client', 'viewer');
  const staffMember = await onboardUser(t, staff, 'client', 'orgstaff');
  const outsider = await onboardUser(t, staff, 'client', 'outsider');
  await grantMembership(staff, clientMember.id, organizationId, 'client');
  await grantMembership(staff, viewerMember.id, organizationId, 'viewer');
  await grantMembership(staff, staffMember.id, organizationId, 'staff');
  await grantMembership(staff, outsider.id, otherOrganizationId, 'client');
  const member = await mintKey(clientMember.agent);
  const memberReadOnly = await mintKey(clientMember.agent, { permissions: { erp: ['read'] } });
  const revoked = await mintKey(clientMember.agent);
  await clientMember.agent.delete(`/api/auth/api-keys/${revoked.id}`).expect(204);
  const scoped = await mintKey(staff, { entityId: otherEntityId });
  return {
    staff,
    organizationId,
    entityId,
    otherOrganizationId,
    otherEntityId,
    clientMember,
    viewerMember,
    staffMember,
    outsider,
    keys: { member: member.key, memberReadOnly: memberReadOnly.key, revoked: revoked.key, scopedToOtherEntity: scoped.key },
  };
}

/** A new Entity in the world's Organization (one without Books, Dimensions, Partners or a chart yet). */
export async function freshEntity(world: World): Promise<string> {
  return (await createEntity(world.staff, world.organizationId)).id;
}

/** A test app (`createTestApp(options)`) with everyone `buildWorld` onboards; `staff` is `world.staff`. */
export async function createWorldApp(options: TestAppOptions = {}): Promise<{ t: TestApp; world: World; staff: Agent }> {
  const t = await createTestApp(options);
  const world = await buildWorld(t);
  return { t, world, staff: world.staff };
}
