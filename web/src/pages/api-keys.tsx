import { useEffect, useState } from 'preact/hooks';
import type { ApiKeyCreated, ApiKeySummary, Entity } from '../../../libs/contracts/src';
import { api } from '../api';
import { Field, FormMessages, formatDateTime, Notice, ShownOnce, usePages, useSubmit } from '../ui';

function MintKey({ entities, onMinted }: { entities: Entity[]; onMinted: (key: ApiKeyCreated) => void }) {
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [entityId, setEntityId] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const { errors, busy, run } = useSubmit(['name', 'permissions', 'entityId', 'expiresAt']);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      name,
      ...(readOnly ? { permissions: { erp: ['read'] } } : {}),
      ...(entityId ? { entityId } : {}),
      ...(expiresOn ? { expiresAt: new Date(`${expiresOn}T23:59:59`).toISOString() } : {}),
    };
    const minted = await run(() => api<ApiKeyCreated>('POST', '/auth/api-keys', body));
    if (minted) {
      setName('');
      onMinted(minted);
    }
  };
  return (
    <form class="card" aria-labelledby="mint-key" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="mint-key">New API key</h2>
      <Field label="Key name" name="name" errors={errors}>
        {(props) => <input {...props} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field label="Confine to one Entity" name="entityId" errors={errors} hint="Empty: every Entity you reach.">
        {(props) => (
          <select {...props} value={entityId} onChange={(e) => setEntityId(e.currentTarget.value)}>
            <option value="">Every Entity</option>
            {entities.map((entity) => (
              <option key={entity.id} value={entity.id}>
                {entity.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Expires at the end of" name="expiresAt" errors={errors} hint="Empty: no expiry.">
        {(props) => <input {...props} type="date" value={expiresOn} onInput={(e) => setExpiresOn(e.currentTarget.value)} />}
      </Field>
      <div class={`field check${errors.fields.permissions ? ' invalid' : ''}`}>
        <input id="key-read-only" type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.currentTarget.checked)} />
        <label for="key-read-only">Read-only</label>
        {errors.fields.permissions ? <p class="error">{errors.fields.permissions}</p> : null}
      </div>
      <FormMessages errors={errors} />
      <button type="submit" disabled={busy}>
        Mint key
      </button>
    </form>
  );
}

function KeyRow({ apiKey, entityName, onRevoked }: { apiKey: ApiKeySummary; entityName: string; onRevoked: () => void }) {
  const { errors, busy, run } = useSubmit([]);
  const revoke = async () => {
    if (!confirm(`Revoke the key ${apiKey.name}? Software using it stops working.`)) return;
    const done = await run(() => api<void>('DELETE', `/auth/api-keys/${apiKey.id}`).then(() => true));
    if (done) onRevoked();
  };
  return (
    <tr>
      <td>{apiKey.name}</td>
      <td>
        <code>{apiKey.prefix}</code>
      </td>
      <td>{apiKey.permissions ? 'read-only' : 'full'}</td>
      <td>{entityName}</td>
      <td>{apiKey.expiresAt ? formatDateTime(apiKey.expiresAt) : 'never'}</td>
      <td>{apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : 'never'}</td>
      <td>
        {apiKey.revokedAt ? (
          `revoked ${formatDateTime(apiKey.revokedAt)}`
        ) : (
          <button type="button" class="danger" disabled={busy} aria-label={`Revoke ${apiKey.name}`} onClick={() => void revoke()}>
            Revoke
          </button>
        )}
        <FormMessages errors={errors} />
      </td>
    </tr>
  );
}

export function ApiKeysPage() {
  const [keys, setKeys] = useState<ApiKeySummary[] | null>(null);
  const [entities, setEntities] = useState<Entity[]>([]);
  const [minted, setMinted] = useState<ApiKeyCreated | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const load = useSubmit([]);
  const reload = async () => {
    const rows = await load.run(() => api<ApiKeySummary[]>('GET', '/auth/api-keys'));
    if (rows) setKeys(rows);
  };
  useEffect(() => {
    void reload();
    void api<Entity[]>('GET', '/entities').then((rows) => setEntities([...rows].sort((a, b) => a.name.localeCompare(b.name))), () => undefined);
  }, []);
  const { rows, pager } = usePages(keys ?? []);
  const entityName = (id: string | null) => (id ? (entities.find((entity) => entity.id === id)?.name ?? id) : 'every Entity');
  return (
    <>
      <p>Keys let software call the API as you. Each is yours alone; send it in the <code>x-api-key</code> header.</p>
      <MintKey
        entities={entities}
        onMinted={(key) => {
          setMinted(key);
          setMessage(null);
          void reload();
        }}
      />
      {minted ? (
        <ShownOnce label={`Secret of ${minted.name}`} value={minted.key}>
          <p>Store it now in the software that will use it.</p>
        </ShownOnce>
      ) : null}
      {message ? <Notice>{message}</Notice> : null}
      <FormMessages errors={load.errors} />
      <section aria-labelledby="key-list">
        <h2 id="key-list">My keys</h2>
        {keys === null ? <p>Loading…</p> : keys.length === 0 ? <p>No key yet.</p> : null}
        {keys && keys.length > 0 ? (
          <div class="scroll" tabIndex={0} role="region" aria-label="My keys table">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Access</th>
                  <th scope="col">Entity</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((apiKey) => (
                  <KeyRow
                    key={`${apiKey.id}:${apiKey.revokedAt ?? ''}`}
                    apiKey={apiKey}
                    entityName={entityName(apiKey.entityId)}
                    onRevoked={() => {
                      setMinted(null);
                      setMessage(`Revoked ${apiKey.name}.`);
                      void reload();
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {pager}
      </section>
    </>
  );
}
