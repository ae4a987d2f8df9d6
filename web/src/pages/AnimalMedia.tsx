// The animal page's Photos tab: photos and documents uploaded from the app (multipart, with progress),
// a primary photo chosen, photos marked public, photos and documents deleted after a confirmation.
import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  Image,
  Loader,
  Modal,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiB, fail, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { ListTable, when } from './parts';
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';
import { useAnimalDocuments, useAnimalPhotos } from '../queries/animals';

const KINDS = ['medical', 'health_certificate', 'adoption', 'intake', 'legal', 'identification', 'other'] as const;
type Kind = (typeof KINDS)[number];
const kindLabel = (k: string) => (k.charAt(0).toUpperCase() + k.slice(1)).replaceAll('_', ' ');
const size = (n: number) => (n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/**
 * A multipart upload with its progress (fetch reports none for a request body, so XMLHttpRequest): the
 * session cookie goes along, and a refusal becomes an ApiError with the API's sentence and fields.
 */
export function upload(url: string, form: FormData, onProgress: (percent: number) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError('The upload did not reach Ark: check the connection and try again.', 0));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else {
        try {
          fail(body, xhr);
        } catch (e) {
          reject(e instanceof Error ? e : new Error('The upload failed.'));
        }
      }
    };
    xhr.send(form);
  });
}

/** The sentence for a refused file (it starts with "file …", or the upload was too large), shown under the file field. */
const fileError = (err: unknown) => fieldError(err, 'file') ?? (err instanceof ApiError && err.status === 413 ? err.message : undefined);

/** Asks before a delete; the button names what goes. */
function ConfirmDelete({
  what,
  opened,
  onClose,
  onConfirm,
  pending,
}: {
  what: string;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Delete ${what}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text size="sm">The file is removed from Ark for good; this cannot be undone.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep it
          </Button>
          <Button color="red.9" onClick={onConfirm} loading={pending}>
            Delete {what}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type Photo = {
  id: string;
  caption: string | null;
  is_public: boolean;
  is_primary: boolean;
  urls: { small: string; medium: string; original: string };
  width: number;
  height: number;
  byte_size: number;
  filename: string | null;
};

function PhotoCard({ id, p, canWrite }: { id: string; p: Photo; canWrite: boolean }) {
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const name = p.caption || p.filename || 'this photo';
  const change = useMutation({
    mutationFn: (body: { is_public?: boolean; is_primary?: true }) =>
      ok(apiB.PATCH('/api/animals/{id}/photos/{photo_id}', { params: { path: { id, photo_id: p.id } }, body })),
    onSuccess: (_r, body) => {
      notify(body.is_primary ? 'Primary photo chosen' : body.is_public ? 'Photo marked public' : 'Photo no longer public');
      void client.invalidateQueries({ queryKey: keys.animal.part(id, 'photos') });
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(apiB.DELETE('/api/animals/{id}/photos/{photo_id}', { params: { path: { id, photo_id: p.id } } })),
    onSuccess: () => {
      setAsking(false);
      notify('Photo deleted');
      void client.invalidateQueries({ queryKey: keys.animal.part(id, 'photos') });
    },
  });
  return (
    <Card withBorder p="xs" component="article" aria-label={`Photo ${name}`}>
      <Card.Section>
        <Image src={p.urls.small} alt={p.caption || `Photo ${p.filename ?? ''}`.trim()} h={160} fit="cover" />
      </Card.Section>
      <Stack gap={6} mt="xs">
        <Group gap={4}>
          {p.is_primary && (
            <Badge variant="filled" color="ark.9">
              primary
            </Badge>
          )}
          <Badge variant="filled" color={p.is_public ? 'teal.9' : 'gray.7'}>
            {p.is_public ? 'public' : 'staff only'}
          </Badge>
        </Group>
        <Text size="sm">
          {p.caption || (
            <Text span c="dimmed" size="sm">
              No caption
            </Text>
          )}
        </Text>
        <Text size="xs" c="dimmed">
          {p.width}×{p.height}, {size(p.byte_size)}
        </Text>
        {canWrite && (
          <>
            <Checkbox
              label="Public"
              aria-label={`${name}: public`}
              checked={p.is_public}
              onChange={(e) => change.mutate({ is_public: e.currentTarget.checked })}
            />
            <Group gap="xs">
              {!p.is_primary && (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => change.mutate({ is_primary: true })}
                  loading={change.isPending}
                  aria-label={`Make ${name} the primary photo`}
                >
                  Make primary
                </Button>
              )}
              <Button size="xs" variant="default" color="red.9" onClick={() => setAsking(true)} aria-label={`Delete ${name}`}>
                Delete
              </Button>
            </Group>
          </>
        )}
        {(change.error || remove.error) && (
          <Text size="xs" c="red.9">
            {(change.error ?? remove.error)?.message}
          </Text>
        )}
      </Stack>
      <ConfirmDelete
        what="the photo"
        opened={asking}
        onClose={() => setAsking(false)}
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
      />
    </Card>
  );
}

function AddPhoto({ id }: { id: string }) {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const add = useMutation({
    mutationFn: () => {
      const form = new FormData();
      if (caption.trim()) form.append('caption', caption.trim());
      form.append('is_public', String(isPublic));
      if (!file) throw new Error('Choose a photo first.');
      form.append('file', file);
      setProgress(0);
      return upload(`/api/animals/${encodeURIComponent(id)}/photos`, form, setProgress);
    },
    onSuccess: () => {
      notify('Photo uploaded');
      setFile(null);
      setCaption('');
      setPublic(false);
      void client.invalidateQueries({ queryKey: keys.animal.part(id, 'photos') });
    },
    onSettled: () => setProgress(null),
  });
  return (
    <Card
      withBorder
      component="form"
      aria-labelledby="add-photo-title"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack gap="xs">
        <Title order={3} size="h5" id="add-photo-title">
          Upload a photo
        </Title>
        <Group align="flex-start">
          <FileInput
            label="Photo file"
            description="JPEG, PNG, WebP or AVIF"
            accept="image/jpeg,image/png,image/webp,image/avif,image/heic"
            required
            w={260}
            value={file}
            onChange={(f) => {
              setFile(f);
              add.reset();
            }}
            error={fileError(add.error)}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
          />
          <TextInput
            label="Caption"
            w={260}
            maxLength={500}
            value={caption}
            onChange={(e) => setCaption(e.currentTarget.value)}
            error={fieldError(add.error, 'caption')}
          />
        </Group>
        <Checkbox
          label="Public: shown on the website while the animal is public"
          checked={isPublic}
          onChange={(e) => setPublic(e.currentTarget.checked)}
        />
        {progress !== null && <Progress value={progress} aria-label="Upload progress" size="lg" />}
        {!fileError(add.error) && formError(add.error, ['file', 'caption']) && (
          <Alert color="red">{formError(add.error, ['file', 'caption'])}</Alert>
        )}
        <Group>
          <Button type="submit" loading={add.isPending} disabled={!file}>
            Upload the photo
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

type Doc = {
  id: string;
  title: string;
  kind: string;
  content_type: string;
  byte_size: number;
  filename: string | null;
  url: string;
  created_at: string;
};

function DocumentRow({ id, d, canDelete }: { id: string; d: Doc; canDelete: boolean }) {
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => ok(apiB.DELETE('/api/animals/{id}/documents/{document_id}', { params: { path: { id, document_id: d.id } } })),
    onSuccess: () => {
      setAsking(false);
      notify('Document deleted');
      void client.invalidateQueries({ queryKey: keys.animal.part(id, 'documents') });
    },
  });
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor href={d.url} size="sm" c="ark.9">
          {d.title}
        </Anchor>
      </Table.Td>
      <Table.Td>{kindLabel(d.kind)}</Table.Td>
      <Table.Td>{size(d.byte_size)}</Table.Td>
      <Table.Td>{when(d.created_at)}</Table.Td>
      <Table.Td>
        {canDelete && (
          <Button size="xs" variant="default" onClick={() => setAsking(true)} aria-label={`Delete ${d.title}`}>
            Delete
          </Button>
        )}
        {remove.error && (
          <Text size="xs" c="red.9">
            {remove.error.message}
          </Text>
        )}
        <ConfirmDelete
          what="the document"
          opened={asking}
          onClose={() => setAsking(false)}
          onConfirm={() => remove.mutate()}
          pending={remove.isPending}
        />
      </Table.Td>
    </Table.Tr>
  );
}

function AddDocument({ id }: { id: string }) {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState<Kind>('other');
  const [progress, setProgress] = useState<number | null>(null);
  const add = useMutation({
    mutationFn: () => {
      const form = new FormData();
      if (title.trim()) form.append('title', title.trim());
      form.append('kind', kind);
      if (!file) throw new Error('Choose a file first.');
      form.append('file', file);
      setProgress(0);
      return upload(`/api/animals/${encodeURIComponent(id)}/documents`, form, setProgress);
    },
    onSuccess: () => {
      notify('Document uploaded');
      setFile(null);
      setTitle('');
      void client.invalidateQueries({ queryKey: keys.animal.part(id, 'documents') });
    },
    onSettled: () => setProgress(null),
  });
  return (
    <Card
      withBorder
      component="form"
      aria-labelledby="add-document-title"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack gap="xs">
        <Title order={3} size="h5" id="add-document-title">
          Upload a document
        </Title>
        <Group align="flex-start">
          <FileInput
            label="Document file"
            description="PDF, Word, Excel, PowerPoint, OpenDocument, or a scan"
            required
            w={260}
            value={file}
            onChange={(f) => {
              setFile(f);
              add.reset();
            }}
            error={fileError(add.error)}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
          />
          <TextInput
            label="Title"
            description="Default: the file's name"
            w={240}
            maxLength={200}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={fieldError(add.error, 'title')}
          />
          <Select
            label="Kind"
            w={200}
            data={KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
            value={kind}
            onChange={(v) => setKind(oneOf(KINDS, v) ?? 'other')}
            allowDeselect={false}
          />
        </Group>
        {progress !== null && <Progress value={progress} aria-label="Upload progress" size="lg" />}
        {!fileError(add.error) && formError(add.error, ['file', 'title', 'kind']) && (
          <Alert color="red">{formError(add.error, ['file', 'title', 'kind'])}</Alert>
        )}
        <Group>
          <Button type="submit" loading={add.isPending} disabled={!file}>
            Upload the document
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The Photos tab: the gallery (primary first) and the documents, each with its upload form for members who may write. */
export default function AnimalMedia({ id }: { id: string }) {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const canDelete = can(session.data?.grants, 'animals', 'admin');
  const photos = useAnimalPhotos(id);
  const docs = useAnimalDocuments(id);
  return (
    <Stack mt="md">
      <Title order={3} size="h4">
        Photos
      </Title>
      {photos.isError && <Alert color="red">{photos.error.message}</Alert>}
      {!photos.data ? (
        <Loader role="status" aria-label="Loading" />
      ) : photos.data.results.length ? (
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          {photos.data.results.map((p) => (
            <PhotoCard key={p.id} id={id} p={p} canWrite={canWrite} />
          ))}
        </SimpleGrid>
      ) : (
        <Alert color="gray">
          {canWrite ? 'No photos yet: upload the first one below; it becomes the primary photo.' : 'No photos yet.'}
        </Alert>
      )}
      {canWrite && <AddPhoto id={id} />}
      <Title order={3} size="h4" mt="md">
        Documents
      </Title>
      {docs.isError && <Alert color="red">{docs.error.message}</Alert>}
      <ListTable
        rows={docs.data?.results}
        label="Documents"
        head={['Title', 'Kind', 'Size', 'Added', '']}
        empty={canWrite ? 'No documents yet: upload a vet record, a contract or a certificate below.' : 'No documents yet.'}
        row={(d) => <DocumentRow key={d.id} id={id} d={d} canDelete={canDelete} />}
      />
      {canWrite && <AddDocument id={id} />}
    </Stack>
  );
}
