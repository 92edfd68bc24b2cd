import { useEffect, useState } from 'preact/hooks';
import type { Country, Currency, Entity, OrganizationSummary } from '../../../libs/contracts/src';
import { canonicalRut } from '../../../libs/shared-kernel/src/chilean-rut';
import { api, newId } from '../api';
import { Field, FormMessages, Notice, usePages, useSubmit } from '../ui';
import { useOrganizations } from './organizations';

function useReference() {
  const [countries, setCountries] = useState<Country[]>([]);
  const [currencies, setCurrencies] = useState<Currency[]>([]);
  const { errors, run } = useSubmit([]);
  useEffect(() => {
    void run(() => Promise.all([api<Country[]>('GET', '/countries'), api<Currency[]>('GET', '/currencies')])).then((answer) => {
      if (!answer) return;
      setCountries(answer[0]);
      setCurrencies(answer[1]);
    });
  }, []);
  return { countries, currencies, errors };
}

/** D23: for Chile the tax id is a RUT, checked as it is typed (the API checks it again). */
function rutProblem(country: string, taxId: string): string | null {
  if (country !== 'CL' || taxId.trim() === '') return null;
  return canonicalRut(taxId) ? null : 'Not a valid RUT: the check digit does not match (for example 76.086.428-5).';
}

function CreateEntity({ organizations, onCreated }: { organizations: OrganizationSummary[] | null; onCreated: (entity: Entity) => void }) {
  const { countries, currencies, errors: referenceErrors } = useReference();
  const [name, setName] = useState('');
  const [country, setCountry] = useState('CL');
  const [taxId, setTaxId] = useState('');
  const [currency, setCurrency] = useState('CLP');
  const [organizationId, setOrganizationId] = useState('');
  const { errors, busy, run } = useSubmit(['name', 'country', 'taxId', 'currency', 'organizationId', 'id']);
  const localRut = rutProblem(country, taxId);
  const canonical = country === 'CL' ? canonicalRut(taxId) : null;
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { id: newId(), name, country, taxId, currency, ...(organizationId ? { organizationId } : {}) };
    const created = await run(() => api<Entity>('POST', '/entities', body));
    if (created) {
      setName('');
      setTaxId('');
      onCreated(created);
    }
  };
  return (
    <form class="card" aria-labelledby="create-entity" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="create-entity">New Entity</h2>
      <FormMessages errors={referenceErrors} />
      <Field label="Legal name" name="name" errors={errors}>
        {(props) => <input {...props} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field label="Country" name="country" errors={errors}>
        {(props) => (
          <select {...props} value={country} onChange={(e) => setCountry(e.currentTarget.value)}>
            {countries.length === 0 ? <option value="CL">CL</option> : null}
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Tax id"
        name="taxId"
        errors={errors}
        localError={localRut}
        hint={country === 'CL' ? (canonical ? `Valid RUT, stored as ${canonical}.` : 'A Chilean RUT, with or without dots.') : undefined}
      >
        {(props) => <input {...props} value={taxId} autoComplete="off" onInput={(e) => setTaxId(e.currentTarget.value)} />}
      </Field>
      <Field label="Functional currency" name="currency" errors={errors}>
        {(props) => (
          <select {...props} value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
            {currencies.length === 0 ? <option value="CLP">CLP</option> : null}
            {currencies.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Organization" name="organizationId" errors={errors} hint="Without one, a new Organization named after the Entity is made.">
        {(props) => (
          <select {...props} value={organizationId} onChange={(e) => setOrganizationId(e.currentTarget.value)}>
            <option value="">A new Organization</option>
            {(organizations ?? []).map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormMessages errors={errors} />
      <button type="submit" disabled={busy}>
        Create Entity
      </button>
    </form>
  );
}

function EditEntity({ entity, entities, organizations, onSaved }: {
  entity: Entity;
  entities: Entity[];
  organizations: OrganizationSummary[] | null;
  onSaved: (entity: Entity, message: string) => void;
}) {
  const [organizationId, setOrganizationId] = useState(entity.organizationId);
  const [parentEntityId, setParentEntityId] = useState(entity.parentEntityId ?? '');
  const [lockDate, setLockDate] = useState(entity.ledgerLockDate ?? '');
  const move = useSubmit(['organizationId']);
  const parent = useSubmit(['parentEntityId']);
  const lock = useSubmit(['ledgerLockDate']);
  const submitMove = async (event: Event) => {
    event.preventDefault();
    const saved = await move.run(() => api<Entity>('PATCH', `/entities/${entity.id}/organization`, { organizationId }));
    if (saved) onSaved(saved, `${saved.name} moved to ${organizations?.find((o) => o.id === saved.organizationId)?.name ?? 'its new Organization'}.`);
  };
  const submitParent = async (event: Event) => {
    event.preventDefault();
    const saved = await parent.run(() => api<Entity>('PATCH', `/entities/${entity.id}/parent`, { parentEntityId: parentEntityId || null }));
    if (saved) onSaved(saved, `Controlling Entity of ${saved.name} saved.`);
  };
  const submitLock = async (event: Event) => {
    event.preventDefault();
    const saved = await lock.run(() => api<Entity>('PATCH', `/entities/${entity.id}/ledger-lock-date`, { ledgerLockDate: lockDate || null }));
    if (saved) onSaved(saved, `Lock date of ${saved.name} saved.`);
  };
  return (
    <section class="card" aria-labelledby="edit-entity">
      <h2 id="edit-entity">{entity.name}</h2>
      <p class="muted">
        {entity.country} · {entity.taxId} · {entity.currency}
      </p>
      <div class="three">
        <form onSubmit={(event) => void submitMove(event)} noValidate>
          <Field label="Move to Organization" name="organizationId" errors={move.errors}>
            {(props) => (
              <select {...props} value={organizationId} onChange={(e) => setOrganizationId(e.currentTarget.value)}>
                {(organizations ?? []).map((organization) => (
                  <option key={organization.id} value={organization.id}>
                    {organization.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <FormMessages errors={move.errors} />
          <button type="submit" disabled={move.busy}>
            Move
          </button>
        </form>
        <form onSubmit={(event) => void submitParent(event)} noValidate>
          <Field label="Controlling Entity (parent)" name="parentEntityId" errors={parent.errors}>
            {(props) => (
              <select {...props} value={parentEntityId} onChange={(e) => setParentEntityId(e.currentTarget.value)}>
                <option value="">None</option>
                {entities
                  .filter((candidate) => candidate.id !== entity.id)
                  .map((candidate) => (
                    <option key={candidate.id} value={candidate.id}>
                      {candidate.name}
                    </option>
                  ))}
              </select>
            )}
          </Field>
          <FormMessages errors={parent.errors} />
          <button type="submit" disabled={parent.busy}>
            Save parent
          </button>
        </form>
        <form onSubmit={(event) => void submitLock(event)} noValidate>
          <Field label="Ledger lock date" name="ledgerLockDate" errors={lock.errors} hint="Nothing can be posted on or before it. Empty: no lock.">
            {(props) => <input {...props} type="date" value={lockDate} onInput={(e) => setLockDate(e.currentTarget.value)} />}
          </Field>
          <FormMessages errors={lock.errors} />
          <button type="submit" disabled={lock.busy}>
            Save lock date
          </button>
        </form>
      </div>
    </section>
  );
}

export function EntitiesPage() {
  const { organizations, reload: reloadOrganizations } = useOrganizations();
  const [entities, setEntities] = useState<Entity[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const load = useSubmit([]);
  const reload = async () => {
    const rows = await load.run(() => api<Entity[]>('GET', '/entities'));
    if (rows) setEntities([...rows].sort((a, b) => a.name.localeCompare(b.name)));
  };
  useEffect(() => void reload(), []);
  const { rows, pager } = usePages(entities ?? []);
  const organizationName = (id: string) => organizations?.find((organization) => organization.id === id)?.name ?? '…';
  const entityName = (id: string | null) => (id ? (entities?.find((entity) => entity.id === id)?.name ?? '…') : '');
  const current = entities?.find((entity) => entity.id === selected) ?? null;
  const changed = (entity: Entity, text: string) => {
    setMessage(text);
    setSelected(entity.id);
    void reload();
    void reloadOrganizations();
  };
  return (
    <>
      <CreateEntity organizations={organizations} onCreated={(entity) => changed(entity, `Created ${entity.name}.`)} />
      {message ? <Notice>{message}</Notice> : null}
      <FormMessages errors={load.errors} />
      <section aria-labelledby="entity-list">
        <h2 id="entity-list">All Entities</h2>
        {entities === null ? <p>Loading…</p> : entities.length === 0 ? <p>No Entity yet.</p> : null}
        {entities && entities.length > 0 ? (
          <div class="scroll" tabIndex={0} role="region" aria-label="All Entities table">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Tax id</th>
                  <th scope="col">Currency</th>
                  <th scope="col">Organization</th>
                  <th scope="col">Parent</th>
                  <th scope="col">Lock date</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((entity) => (
                  <tr key={entity.id} class={entity.id === selected ? "selected" : undefined}>
                    <td>{entity.name}</td>
                    <td>
                      {entity.country} {entity.taxId}
                    </td>
                    <td>{entity.currency}</td>
                    <td>{organizationName(entity.organizationId)}</td>
                    <td>{entityName(entity.parentEntityId)}</td>
                    <td>{entity.ledgerLockDate ?? ''}</td>
                    <td>
                      <button type="button" aria-label={`Edit ${entity.name}`} onClick={() => setSelected(entity.id)}>
                        Edit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {pager}
      </section>
      {current && entities ? <EditEntity key={current.id} entity={current} entities={entities} organizations={organizations} onSaved={changed} /> : null}
    </>
  );
}
