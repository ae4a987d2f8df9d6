import { useState } from 'react';
import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import { AuthFrame } from './Auth';

export default function Reset() {
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const reset = useMutation({ mutationFn: () => ok(apiB.POST('/api/session/password', { body: { token, password } })) });
  return (
    <AuthFrame title="Choose a new password" intro="Every device signed in to your account is signed out.">
      {reset.isSuccess ? (
        <Alert color="teal">
          Your password is changed. <Link to="/sign-in">Sign in</Link>
        </Alert>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            reset.mutate();
          }}
        >
          <Stack>
            <PasswordInput
              label="New password"
              description="At least 10 characters"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldError(reset.error, 'password')}
            />
            {formError(reset.error, ['password']) && <Alert color="red">{formError(reset.error, ['password'])}</Alert>}
            <Button type="submit" loading={reset.isPending}>
              Save the new password
            </Button>
          </Stack>
        </form>
      )}
    </AuthFrame>
  );
}
