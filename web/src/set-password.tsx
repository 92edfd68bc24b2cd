import { render } from 'preact';
import { useState } from 'preact/hooks';
import { PASSWORD_RULES } from '../../libs/contracts/src/identity';
import { api, ApiError } from './api';
import { Field, FormMessages, useSubmit } from './ui';

function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_RULES.minLength) return `Use at least ${PASSWORD_RULES.minLength} characters (${password.length} so far).`;
  if (password.length > PASSWORD_RULES.maxLength) return `Use at most ${PASSWORD_RULES.maxLength} characters.`;
  return null;
}

function SetPassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [tried, setTried] = useState(false);
  const [outcome, setOutcome] = useState<'done' | 'invalid' | null>(null);
  const { errors, busy, run } = useSubmit(['newPassword', 'token']);
  const tooWeak = tried ? passwordProblem(password) : null;
  const mismatch = tried && again !== password ? 'The two passwords differ.' : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    setTried(true);
    if (passwordProblem(password) || again !== password) return;
    try {
      await api<void>('POST', '/auth/set-password', { token, newPassword: password });
      setOutcome('done');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SET_PASSWORD_TOKEN_INVALID_ERROR') setOutcome('invalid');
      else await run(() => Promise.reject(error));
    }
  };

  if (outcome === 'done') {
    return (
      <main class="narrow">
        <h1>Your password is set</h1>
        <div class="notice" role="status">
          <p>This link is now used and cannot be opened again.</p>
        </div>
        <h2>What to do next</h2>
        <ol>
          <li>Sign in with your e-mail and this password in the software your accountant gave you, or through the API (<code>POST /api/auth/sign-in/email</code>).</li>
          <li>Any session you had before was ended: sign in again where you were signed in.</li>
          <li>Forgot it later? Ask your accountant for a new link.</li>
        </ol>
      </main>
    );
  }
  if (outcome === 'invalid') return <LinkRefused />;
  return (
    <main class="narrow">
      <h1>Choose your password</h1>
      <section aria-labelledby="rules" class="card">
        <h2 id="rules">Password rules</h2>
        <ul>
          <li>At least {PASSWORD_RULES.minLength} characters (a few words make a good one).</li>
          <li>At most {PASSWORD_RULES.maxLength} characters.</li>
          <li>This link works once and expires; staff can give you a new one.</li>
        </ul>
      </section>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="New password" name="newPassword" errors={errors} localError={tooWeak}>
          {(props) => <input {...props} type="password" autoComplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
        </Field>
        <Field label="New password again" name="again" errors={errors} localError={mismatch}>
          {(props) => <input {...props} type="password" autoComplete="new-password" value={again} onInput={(e) => setAgain(e.currentTarget.value)} />}
        </Field>
        <FormMessages errors={errors} />
        <button type="submit" disabled={busy}>
          Set password
        </button>
      </form>
    </main>
  );
}

function LinkRefused() {
  return (
    <main class="narrow">
      <h1>This link cannot be used</h1>
      <div class="alert" role="alert">
        <p>This set-password link has expired or was already used (each link works once, and a newer link ends the older ones).</p>
      </div>
      <p>Ask the staff who onboarded you for a new link. If you already set your password, just sign in.</p>
    </main>
  );
}

function Page() {
  const token = new URLSearchParams(location.search).get('token');
  if (!token) {
    return (
      <main class="narrow">
        <h1>This link is incomplete</h1>
        <div class="alert" role="alert">
          <p>The address has no token. Open the whole link you were given, or ask staff for a new one.</p>
        </div>
      </main>
    );
  }
  return <SetPassword token={token} />;
}

render(<Page />, document.getElementById('app')!);
