import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { apiB, fieldError, formError, ok, textIn } from '../api';
import { AuthFrame } from './Auth';

export default function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [forgot, setForgot] = useState(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  const from = textIn(useLocation().state, 'from') ?? '/';
  const signIn = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/session', {
          body: { email, password, ...(code ? (code.includes('-') ? { recovery_code: code } : { totp_code: code }) : {}) },
        }),
      ),
    onSuccess: (s) => {
      client.setQueryData(['session'], s);
      void navigate(from, { replace: true });
    },
  });
  const reset = useMutation({ mutationFn: () => ok(apiB.POST('/api/session/password-reset', { body: { email } })) });
  const err = signIn.error;
  if (forgot)
    return (
      <AuthFrame title="Reset your password" intro="We email a link that works once, for an hour.">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            reset.mutate();
          }}
        >
          <Stack>
            <TextInput
              label="Email"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fieldError(reset.error, 'email')}
            />
            {reset.isSuccess && <Alert color="teal">If this address belongs to a team member, a link is on its way.</Alert>}
            <Button type="submit" loading={reset.isPending}>
              Send the link
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={() => setForgot(false)}>
              Back to sign-in
            </Anchor>
          </Stack>
        </form>
      </AuthFrame>
    );
  return (
    <AuthFrame title="Sign in" intro="With the email address your rescue invited.">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          signIn.mutate();
        }}
      >
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(err, 'email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(err, 'password')}
          />
          {/* Always offered: the answer to a sign-in never says whether the account asks for a code
              (nor whether the password was right). */}
          <TextInput
            label="Code from your authenticator app"
            description="Only if two-factor sign-in is on for you; or one of your recovery codes"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          {formError(err, ['email', 'password']) && (
            <Alert color="red" role="alert">
              {formError(err, ['email', 'password'])}
            </Alert>
          )}
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={() => setForgot(true)}>
            Forgot your password?
          </Anchor>
        </Stack>
      </form>
    </AuthFrame>
  );
}
