import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionResponse, SessionUser, SignInResponse } from '../../libs/contracts/src';
import { api, ApiError, SESSION_ENDED } from './api';
import { ApiKeysPage } from './pages/api-keys';
import { EntitiesPage } from './pages/entities';
import { OrganizationsPage } from './pages/organizations';
import { UsersPage } from './pages/users';
import { Field, FormMessages, useSubmit } from './ui';

const SCREENS = [
  { hash: '#/organizations', title: 'Organizations', Page: OrganizationsPage },
  { hash: '#/users', title: 'Users', Page: UsersPage },
  { hash: '#/entities', title: 'Entities', Page: EntitiesPage },
  { hash: '#/api-keys', title: 'My API keys', Page: ApiKeysPage },
] as const;

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

function SignIn({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, run } = useSubmit(['email', 'password']);
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await run(() => api<SignInResponse>('POST', '/auth/sign-in/email', { email, password }));
    if (answer) onSignedIn(answer.user);
  };
  return (
    <main class="narrow">
      <h1>Accounting admin</h1>
      <p>Sign in with your staff account.</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="E-mail" name="email" errors={errors}>
          {(props) => <input {...props} type="email" autoComplete="username" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required />}
        </Field>
        <Field label="Password" name="password" errors={errors}>
          {(props) => (
            <input {...props} type="password" autoComplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} required />
          )}
        </Field>
        <FormMessages errors={errors} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

function NotStaff({ user, onSignOut }: { user: SessionUser; onSignOut: () => void }) {
  return (
    <main class="narrow">
      <h1>These screens are for staff</h1>
      <div class="alert" role="alert">
        <p>
          You are signed in as {user.email}, a client account. The admin screens are for the service's staff only; your books are reached through the API
          (<code>/api/entities</code>) or the software your accountant set up.
        </p>
      </div>
      <button type="button" onClick={onSignOut}>
        Sign out
      </button>
    </main>
  );
}

function App() {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const hash = useHash();

  useEffect(() => {
    const ended = () => {
      setProblem('Your session has ended: sign in again.');
      setUser(null);
    };
    addEventListener(SESSION_ENDED, ended);
    return () => removeEventListener(SESSION_ENDED, ended);
  }, []);

  useEffect(() => {
    api<SessionResponse>('GET', '/auth/session').then(
      (session) => setUser(session.user),
      (error) => {
        if (!(error instanceof ApiError && error.status === 401)) setProblem(error instanceof Error ? error.message : 'The service could not be reached');
        setUser(null);
      },
    );
  }, []);

  const signOut = async () => {
    try {
      await api('POST', '/auth/sign-out');
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        setProblem(error instanceof Error ? error.message : 'Signing out failed');
        return;
      }
    }
    setProblem(null);
    setUser(null);
  };

  if (user === undefined) return <main class="narrow" aria-busy="true"><p>Loading…</p></main>;
  if (user === null) {
    return (
      <>
        {problem ? <div class="alert" role="alert">{problem}</div> : null}
        <SignIn onSignedIn={setUser} />
      </>
    );
  }
  if (user.role !== 'staff') return <NotStaff user={user} onSignOut={() => void signOut()} />;

  const screen = SCREENS.find((candidate) => candidate.hash === hash) ?? SCREENS[0];
  return <Screens user={user} screen={screen} problem={problem} onSignOut={() => void signOut()} />;
}

function Screens({ user, screen, problem, onSignOut }: { user: SessionUser; screen: (typeof SCREENS)[number]; problem: string | null; onSignOut: () => void }) {
  const hash = screen.hash;
  // A screen change moves the focus to the new screen, as a page load would.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else document.getElementById('content')?.focus();
  }, [hash]);
  const Page = screen.Page;
  return (
    <>
      <header class="top">
        <a
          class="skip"
          href={hash}
          onClick={(event) => {
            // The hash routes the screens: move the focus instead of following the link.
            event.preventDefault();
            document.getElementById('content')?.focus();
          }}
        >
          Skip to content
        </a>
        <span class="brand">Accounting admin</span>
        <nav aria-label="Screens">
          <ul>
            {SCREENS.map((candidate) => (
              <li key={candidate.hash}>
                <a href={candidate.hash} aria-current={candidate === screen ? 'page' : undefined}>
                  {candidate.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {user.email}{' '}
          <button type="button" class="link" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      </header>
      {problem ? <div class="alert" role="alert">{problem}</div> : null}
      <main id="content" tabIndex={-1}>
        <h1>{screen.title}</h1>
        <Page key={screen.hash} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
