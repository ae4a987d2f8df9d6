import { useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { useSession } from '../session';
import { keys } from '../queries/keys';

/** The otpauth URI as a QR code drawn in SVG from the code's modules (no image URL, no inline script). */
function Qr({ text, label }: { text: string; label: string }) {
  const { size, cells } = useMemo(() => {
    const q = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const n = q.modules.size;
    const path: string[] = [];
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (q.modules.get(x, y)) path.push(`M${x + 4} ${y + 4}h1v1h-1z`);
    return { size: n + 8, cells: path.join('') };
  }, [text]);
  return (
    <svg viewBox={`0 0 ${size} ${size}`} width={200} height={200} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={cells} fill="#000" />
    </svg>
  );
}

function TwoFactor({ on }: { on: boolean }) {
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useMutation({ mutationFn: () => ok(apiB.POST('/api/session/account/two-factor')) });
  const confirm = useMutation({
    mutationFn: () => ok(apiB.POST('/api/session/account/two-factor/confirm', { body: { code: code.replace(/\s/g, ''), password } })),
    onSuccess: (r) => {
      setCodes(r.recovery_codes);
      setCode('');
      setPassword('');
      start.reset();
      void client.invalidateQueries({ queryKey: keys.session });
    },
  });
  const disable = useMutation({
    mutationFn: () => ok(apiB.POST('/api/session/account/two-factor/disable', { body: { password } })),
    onSuccess: () => {
      setPassword('');
      notify('Two-factor sign-in is off');
      void client.invalidateQueries({ queryKey: keys.session });
    },
  });

  if (codes)
    return (
      <Stack>
        <Alert color="teal" title="Two-factor sign-in is on">
          Keep these recovery codes somewhere safe (a password manager, or printed in the office). Each one signs you in once without the
          app. They are shown only now.
        </Alert>
        <List aria-label="Recovery codes" spacing={4} data-testid="recovery-codes" listStyleType="none" ff="monospace">
          {codes.map((c) => (
            <List.Item key={c}>{c}</List.Item>
          ))}
        </List>
        <Group>
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy the codes'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={() => setCodes(null)}>I have kept them</Button>
        </Group>
      </Stack>
    );

  if (on)
    return (
      <form
        onSubmit={(e) => {
          e.preventDefault();
          disable.mutate();
        }}
      >
        <Stack>
          <Text>
            Two-factor sign-in is <Badge color="teal.9">on</Badge>: signing in asks for a code from your authenticator app (or a recovery
            code).
          </Text>
          <PasswordInput
            label="Your password"
            description="Needed to turn two-factor sign-in off"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(disable.error, 'password')}
            w={320}
          />
          {formError(disable.error, ['password']) && <Alert color="red">{formError(disable.error, ['password'])}</Alert>}
          <Group>
            <Button type="submit" color="red.9" loading={disable.isPending}>
              Turn two-factor sign-in off
            </Button>
          </Group>
        </Stack>
      </form>
    );

  if (!start.data)
    return (
      <Stack>
        <Text>
          Two-factor sign-in is <Badge color="gray.7">off</Badge>. With it on, signing in also asks for a six-digit code from an
          authenticator app on your phone (any TOTP app), so a stolen password alone is not enough.
        </Text>
        {start.error && <Alert color="red">{start.error.message}</Alert>}
        <Group>
          <Button onClick={() => start.mutate()} loading={start.isPending}>
            Set up two-factor sign-in
          </Button>
        </Group>
      </Stack>
    );

  const secret = start.data.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        confirm.mutate();
      }}
    >
      <Stack>
        <Text>1. Scan this code with your authenticator app, or type the key into it.</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Qr text={start.data.otpauth_url} label="QR code of the set-up link for your authenticator app" />
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Key to type
            </Text>
            <Code data-testid="totp-secret" fz="md">
              {secret}
            </Code>
            <Text size="sm" fw={600} mt="sm">
              Set-up link
            </Text>
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {start.data.otpauth_url}
            </Code>
          </Stack>
        </SimpleGrid>
        <Text>2. Type the six-digit code the app shows now, and your password. Nothing changes until both are right.</Text>
        <TextInput
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={fieldError(confirm.error, 'code')}
          w={340}
        />
        <PasswordInput
          label="Your password"
          description="Needed to turn two-factor sign-in on"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fieldError(confirm.error, 'password')}
          w={340}
        />
        {formError(confirm.error, ['code', 'password']) && <Alert color="red">{formError(confirm.error, ['code', 'password'])}</Alert>}
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            Turn two-factor sign-in on
          </Button>
          <Button variant="default" onClick={() => start.reset()}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function NameForm({ name }: { name: string }) {
  const client = useQueryClient();
  const [value, setValue] = useState(name);
  const save = useMutation({
    mutationFn: () => ok(apiB.PATCH('/api/session/account', { body: { name: value.trim() } })),
    onSuccess: () => {
      notify('Name saved');
      void client.invalidateQueries({ queryKey: keys.session });
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Group align="flex-start">
        <TextInput
          label="Your name"
          required
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={fieldError(save.error, 'name') ?? formError(save.error, ['name'])}
          w={320}
        />
        <Button type="submit" variant="default" mt={24} loading={save.isPending}>
          Save the name
        </Button>
      </Group>
    </form>
  );
}

function PasswordForm() {
  const [b, setB] = useState({ current_password: '', new_password: '' });
  const change = useMutation({
    mutationFn: () => ok(apiB.POST('/api/session/account/password', { body: b })),
    onSuccess: () => {
      setB({ current_password: '', new_password: '' });
      notify('Password changed; your other sessions have ended');
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate();
      }}
    >
      <Stack>
        <Group align="flex-start">
          <PasswordInput
            label="Current password"
            required
            value={b.current_password}
            onChange={(e) => setB({ ...b, current_password: e.currentTarget.value })}
            error={fieldError(change.error, 'current_password')}
            w={260}
          />
          <PasswordInput
            label="New password"
            description="10 characters or more, not your email"
            required
            value={b.new_password}
            onChange={(e) => setB({ ...b, new_password: e.currentTarget.value })}
            error={fieldError(change.error, 'new_password')}
            w={260}
          />
        </Group>
        {formError(change.error, ['current_password', 'new_password']) && (
          <Alert color="red">{formError(change.error, ['current_password', 'new_password'])}</Alert>
        )}
        <Group>
          <Button type="submit" variant="default" loading={change.isPending}>
            Change the password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function Account() {
  const session = useSession();
  const m = session.data?.member;
  if (!m) return null;
  return (
    <Stack maw={820}>
      <Title order={2}>Your account</Title>
      <Text c="dimmed">Signed in as {m.email}. Your role and what it lets you do are set by an administrator under Team members.</Text>
      <Paper withBorder p="md" component="section" aria-labelledby="name-title">
        <Title order={3} size="h4" id="name-title" mb="sm">
          Name
        </Title>
        <NameForm name={m.name} />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="tf-title">
        <Title order={3} size="h4" id="tf-title" mb="sm">
          Two-factor sign-in
        </Title>
        <TwoFactor on={m.two_factor} />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="pw-title">
        <Title order={3} size="h4" id="pw-title" mb="sm">
          Password
        </Title>
        <PasswordForm />
      </Paper>
    </Stack>
  );
}
