import { useState } from 'react';
import { Alert, Button, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSignInLink } from '../queries/settings';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import { AuthFrame } from './Auth';

export default function Invite() {
  const { token = '' } = useParams();
  const info = useSignInLink(token);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const client = useQueryClient();
  const navigate = useNavigate();
  const accept = useMutation({
    mutationFn: () => ok(apiB.POST('/api/session/invitation', { body: { token, password, ...(name ? { name } : {}) } })),
    onSuccess: (s) => {
      client.setQueryData(['session'], s);
      void navigate('/', { replace: true });
    },
  });
  if (info.isPending)
    return (
      <AuthFrame title="Your invitation">
        <Loader role="status" aria-label="Loading" />
      </AuthFrame>
    );
  if (info.isError)
    return (
      <AuthFrame title="This link does not work">
        <Alert color="red">{info.error.message} Ask whoever invited you for a new link.</Alert>
        <Link to="/sign-in">Go to sign-in</Link>
      </AuthFrame>
    );
  return (
    <AuthFrame title={`Join ${info.data.organization}`} intro={`You are invited as ${info.data.email}. Choose a password to sign in.`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          accept.mutate();
        }}
      >
        <Stack>
          <TextInput
            label="Your name"
            placeholder={info.data.name}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldError(accept.error, 'name')}
          />
          <PasswordInput
            label="Choose a password"
            description="At least 10 characters"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(accept.error, 'password')}
          />
          {formError(accept.error, ['name', 'password']) && <Alert color="red">{formError(accept.error, ['name', 'password'])}</Alert>}
          <Button type="submit" loading={accept.isPending}>
            Accept and sign in
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
