import { useEffect, useState } from 'preact/hooks';
import type { OrganizationMember, OrganizationRecord, OrganizationSummary } from '../../../libs/contracts/src';
import { api } from '../api';
import { Field, FormMessages, Notice, usePages, useSubmit } from '../ui';

export function useOrganizations() {
  const [organizations, setOrganizations] = useState<OrganizationSummary[] | null>(null);
  const load = useSubmit([]);
  const reload = async () => {
    const rows = await load.run(() => api<OrganizationSummary[]>('GET', '/organizations'));
    if (rows) setOrganizations([...rows].sort((a, b) => a.name.localeCompare(b.name)));
  };
  useEffect(() => void reload(), []);
  return { organizations, reload, loadErrors: load.errors };
}

function CreateOrganization({ onCreated }: { onCreated: (organization: OrganizationRecord) => void }) {
  const [name, setName] = useState('');
  const { errors, busy, run } = useSubmit(['name', 'id']);
  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await run(() => api<OrganizationRecord>('POST', '/organizations', { name }));
    if (created) {
      setName('');
      onCreated(created);
    }
  };
  return (
    <form class="card" aria-labelledby="create-organization" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="create-organization">New Organization</h2>
      <Field label="Organization name" name="name" errors={errors}>
        {(props) => <input {...props} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <FormMessages errors={errors} />
      <button type="submit" disabled={busy}>
        Create Organization
      </button>
    </form>
  );
}

function Members({ organizationId }: { organizationId: string }) {
  const [members, setMembers] = useState<OrganizationMember[] | null>(null);
  const { errors, run } = useSubmit([]);
  useEffect(() => {
    void run(() => api<OrganizationMember[]>('GET', `/organizations/${organizationId}/members`)).then((rows) => rows && setMembers(rows));
  }, [organizationId]);
  const { rows, pager } = usePages(members ?? []);
  return (
    <div class="members">
      <FormMessages errors={errors} />
      {members === null ? null : members.length === 0 ? (
        <p>No members yet: grant a Membership on the Users screen.</p>
      ) : (
        <>
          <div class="scroll" tabIndex={0} role="region" aria-label="Members">
          <table>
            <caption>Members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((member) => (
                <tr key={member.userId}>
                  <td>{member.name}</td>
                  <td>{member.email}</td>
                  <td>{member.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
          {pager}
        </>
      )}
    </div>
  );
}

function OrganizationRow({ organization, onChanged }: { organization: OrganizationSummary; onChanged: (message: string) => void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(organization.name);
  const [showMembers, setShowMembers] = useState(false);
  const rename = useSubmit(['name']);
  const remove = useSubmit([]);
  const submitRename = async (event: Event) => {
    event.preventDefault();
    const renamed = await rename.run(() => api<OrganizationRecord>('PATCH', `/organizations/${organization.id}`, { name }));
    if (renamed) {
      setRenaming(false);
      onChanged(`Renamed to ${renamed.name}.`);
    }
  };
  const submitDelete = async () => {
    if (!confirm(`Delete the Organization ${organization.name}?`)) return;
    const done = await remove.run(() => api<void>('DELETE', `/organizations/${organization.id}`).then(() => true));
    if (done) onChanged(`Deleted ${organization.name}.`);
  };
  return (
    <li class="row-card" data-organization={organization.name}>
      <div class="row-head">
        <strong>{organization.name}</strong>
        <span class="muted">
          {organization.entities.length === 0 ? 'no Entity' : organization.entities.map((entity) => entity.name).join(', ')}
        </span>
      </div>
      <div class="actions">
        <button type="button" aria-expanded={showMembers} onClick={() => setShowMembers(!showMembers)}>
          Members
        </button>
        <button type="button" aria-expanded={renaming} onClick={() => setRenaming(!renaming)}>
          Rename
        </button>
        <button type="button" class="danger" disabled={remove.busy} onClick={() => void submitDelete()}>
          Delete
        </button>
      </div>
      <FormMessages errors={remove.errors} />
      {renaming ? (
        <form onSubmit={(event) => void submitRename(event)} noValidate>
          <Field label={`New name for ${organization.name}`} name="name" errors={rename.errors}>
            {(props) => <input {...props} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <FormMessages errors={rename.errors} />
          <button type="submit" disabled={rename.busy}>
            Save name
          </button>
        </form>
      ) : null}
      {showMembers ? <Members organizationId={organization.id} /> : null}
    </li>
  );
}

export function OrganizationsPage() {
  const { organizations, reload, loadErrors } = useOrganizations();
  const [message, setMessage] = useState<string | null>(null);
  const { rows, pager } = usePages(organizations ?? []);
  const changed = (text: string) => {
    setMessage(text);
    void reload();
  };
  return (
    <>
      <CreateOrganization onCreated={(organization) => changed(`Created ${organization.name}.`)} />
      {message ? <Notice>{message}</Notice> : null}
      <FormMessages errors={loadErrors} />
      <section aria-labelledby="organization-list">
        <h2 id="organization-list">All Organizations</h2>
        {organizations === null ? <p>Loading…</p> : organizations.length === 0 ? <p>No Organization yet.</p> : null}
        <ul class="rows">
          {rows.map((organization) => (
            <OrganizationRow key={`${organization.id}:${organization.name}:${organization.entities.length}`} organization={organization} onChanged={changed} />
          ))}
        </ul>
        {pager}
      </section>
    </>
  );
}
