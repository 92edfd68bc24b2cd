import { useEffect, useState } from 'preact/hooks';
import type { GlobalRole, MembershipRole, OnboardingUser, OrganizationSummary, SetPasswordLink, UserMembership } from '../../../libs/contracts/src';
import { api, newId } from '../api';
import { Field, FormMessages, formatDateTime, Notice, ShownOnce, useSubmit } from '../ui';
import { useOrganizations } from './organizations';

function FindUser({ onFound }: { onFound: (user: OnboardingUser) => void }) {
  const [email, setEmail] = useState('');
  const { errors, busy, run } = useSubmit(['email']);
  const submit = async (event: Event) => {
    event.preventDefault();
    const user = await run(() => api<OnboardingUser>('GET', `/onboarding/users?email=${encodeURIComponent(email)}`));
    if (user) onFound(user);
  };
  return (
    <form class="card" aria-labelledby="find-user" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="find-user">Find a User</h2>
      <Field label="E-mail to find" name="email" errors={errors}>
        {(props) => <input {...props} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
      </Field>
      <FormMessages errors={errors} />
      <button type="submit" disabled={busy}>
        Find
      </button>
    </form>
  );
}

function CreateUser({ onCreated }: { onCreated: (user: OnboardingUser) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<GlobalRole>('client');
  const { errors, busy, run } = useSubmit(['email', 'name', 'role', 'id']);
  const submit = async (event: Event) => {
    event.preventDefault();
    const user = await run(() => api<OnboardingUser>('POST', '/onboarding/users', { id: newId(), email, name, role }));
    if (user) {
      setEmail('');
      setName('');
      onCreated(user);
    }
  };
  return (
    <form class="card" aria-labelledby="create-user" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="create-user">New User</h2>
      <Field label="E-mail" name="email" errors={errors}>
        {(props) => <input {...props} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
      </Field>
      <Field label="Full name" name="name" errors={errors}>
        {(props) => <input {...props} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field label="Global role" name="role" errors={errors} hint="Clients reach only the Entities of their Memberships; staff reach every Entity.">
        {(props) => (
          <select {...props} value={role} onChange={(e) => setRole(e.currentTarget.value as GlobalRole)}>
            <option value="client">client</option>
            <option value="staff">staff</option>
          </select>
        )}
      </Field>
      <FormMessages errors={errors} />
      <button type="submit" disabled={busy}>
        Create User
      </button>
    </form>
  );
}

function OrganizationSelect({ organizations, value, onChange, props }: {
  organizations: OrganizationSummary[] | null;
  value: string;
  onChange: (value: string) => void;
  props: Record<string, unknown>;
}) {
  return (
    <select {...props} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">Choose an Organization</option>
      {(organizations ?? []).map((organization) => (
        <option key={organization.id} value={organization.id}>
          {organization.name}
        </option>
      ))}
    </select>
  );
}

function Memberships({ user, organizations }: { user: OnboardingUser; organizations: OrganizationSummary[] | null }) {
  const [organizationId, setOrganizationId] = useState('');
  const [role, setRole] = useState<MembershipRole>('client');
  const [message, setMessage] = useState<string | null>(null);
  const { errors, busy, run } = useSubmit(['organizationId', 'role']);
  const nameOf = (id: string) => organizations?.find((organization) => organization.id === id)?.name ?? id;
  // Issue 33: what the found User already holds, read again after each grant or revoke.
  const [held, setHeld] = useState<UserMembership[] | null>(null);
  const [heldError, setHeldError] = useState<string | null>(null);
  const load = () =>
    api<UserMembership[]>('GET', `/onboarding/users/${user.id}/memberships`).then(
      (rows) => (setHeldError(null), setHeld(rows)),
      () => setHeldError('The Memberships could not be read.'),
    );
  useEffect(() => void load(), [user.id]);
  const send = async (method: 'POST' | 'DELETE') => {
    setMessage(null);
    const done = await run(() => api<void>(method, `/onboarding/users/${user.id}/memberships`, { organizationId, role }).then(() => true));
    if (done) {
      setMessage(method === 'POST' ? `${user.email} is now ${role} in ${nameOf(organizationId)}.` : `${user.email} no longer holds a Membership in ${nameOf(organizationId)}.`);
      void load();
    }
  };
  return (
    <form class="card" aria-labelledby="memberships" onSubmit={(event) => (event.preventDefault(), void send('POST'))} noValidate>
      <h3 id="memberships">Memberships</h3>
      {heldError ? <p class="error">{heldError}</p> : null}
      {held === null && !heldError ? <p class="muted">Reading the Memberships…</p> : null}
      {held !== null && held.length === 0 ? <p class="muted">No Membership yet.</p> : null}
      {held !== null && held.length > 0 ? (
        <ul class="rows held" aria-label="Memberships held">
          {held.map((membership) => (
            <li key={membership.organizationId}>
              {membership.organizationName}: <strong>{membership.role}</strong>
            </li>
          ))}
        </ul>
      ) : null}
      <Field label="Organization" name="organizationId" errors={errors}>
        {(props) => <OrganizationSelect organizations={organizations} value={organizationId} onChange={setOrganizationId} props={props} />}
      </Field>
      <Field label="Membership role" name="role" errors={errors} hint="viewer reads only; client reads and writes; staff also handles To-dos.">
        {(props) => (
          <select {...props} value={role} onChange={(e) => setRole(e.currentTarget.value as MembershipRole)}>
            <option value="client">client</option>
            <option value="viewer">viewer</option>
            <option value="staff">staff</option>
          </select>
        )}
      </Field>
      <FormMessages errors={errors} />
      {message ? <Notice>{message}</Notice> : null}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Grant Membership
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => void send('DELETE')}>
          Revoke Membership
        </button>
      </div>
    </form>
  );
}

function Credentials({ user }: { user: OnboardingUser }) {
  const [link, setLink] = useState<SetPasswordLink | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const { errors, busy, run } = useSubmit([]);
  const makeLink = async () => {
    setMessage(null);
    const made = await run(() => api<SetPasswordLink>('POST', `/onboarding/users/${user.id}/set-password-link`));
    if (made) setLink(made);
  };
  const revokeSessions = async () => {
    setLink(null);
    const done = await run(() => api<void>('POST', `/onboarding/users/${user.id}/revoke-sessions`).then(() => true));
    if (done) setMessage(`Every session of ${user.email} is ended.`);
  };
  return (
    <section class="card" aria-labelledby="credentials">
      <h3 id="credentials">Password and sessions</h3>
      <p>
        Give the User a set-password link yourself (no e-mail is sent). A new link ends the earlier unused ones.
      </p>
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void makeLink()}>
          Make set-password link
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => void revokeSessions()}>
          Revoke sessions
        </button>
      </div>
      <FormMessages errors={errors} />
      {message ? <Notice>{message}</Notice> : null}
      {link ? (
        <ShownOnce label="Set-password link" value={link.url}>
          <p>
            Single use; expires <time dateTime={link.expiresAt}>{formatDateTime(link.expiresAt)}</time>.
          </p>
        </ShownOnce>
      ) : null}
    </section>
  );
}

export function UsersPage() {
  const [user, setUser] = useState<OnboardingUser | null>(null);
  const [created, setCreated] = useState(false);
  const { organizations } = useOrganizations();
  return (
    <>
      <div class="two">
        <FindUser onFound={(found) => (setCreated(false), setUser(found))} />
        <CreateUser onCreated={(made) => (setCreated(true), setUser(made))} />
      </div>
      {user ? (
        <section aria-labelledby="user-card" class="user" key={user.id}>
          <h2 id="user-card">
            {user.name} &lt;{user.email}&gt;
          </h2>
          {created ? <Notice>Created {user.email}. Next: grant a Membership and make a set-password link.</Notice> : null}
          <p class="muted">
            Global role {user.role}; {user.hasPassword ? 'has a password' : 'no password yet'}; created {formatDateTime(user.createdAt)}.
          </p>
          <div class="two">
            <Memberships user={user} organizations={organizations} />
            <Credentials user={user} />
          </div>
        </section>
      ) : null}
    </>
  );
}
