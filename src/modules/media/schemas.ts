import { Nullable, Strict, StringEnum, Timestamp, Type, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { idParams } from '../../platform/formats.ts';
import { DOCUMENT_TYPES } from './detect.ts';

export const PHOTO_SIZE_NAMES = ['small', 'medium', 'original'] as const;
export const PUBLIC_PHOTO_SIZES = ['small', 'medium'] as const;
export const DOCUMENT_KINDS = ['medical', 'health_certificate', 'adoption', 'intake', 'legal', 'identification', 'other'] as const;

const Caption = Type.String({ maxLength: 500, description: 'at most 500 characters' });
const Title = Type.String({ minLength: 1, maxLength: 200, description: '1 to 200 characters' });
const FileField = Type.String({ format: 'binary', description: 'the file itself (exactly one part named `file`)' });

export const AnimalParams = idParams('id');
export const PhotoParams = idParams('id', 'photo_id');
export const PhotoFileParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  photo_id: Type.String({ maxLength: 64 }),
  size: StringEnum(PHOTO_SIZE_NAMES, { description: 'small (within 320×320), medium (within 1024×1024), or the original' }),
});
export const PublicPhotoFileParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  photo_id: Type.String({ maxLength: 64 }),
  size: StringEnum(PUBLIC_PHOTO_SIZES, { description: 'small (within 320×320) or medium (within 1024×1024); never the original' }),
});
export const DocumentParams = idParams('id', 'document_id');

export const Photo = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    caption: Nullable(Type.String()),
    is_public: Type.Boolean({ description: 'shown on the public website while the animal is public' }),
    is_primary: Type.Boolean({ description: "the animal's main photo; exactly one of an animal's photos is" }),
    content_type: Type.String({ description: 'what the uploaded file was found to be by decoding it' }),
    width: Type.Integer({ description: 'of the original, as shown (EXIF orientation applied)' }),
    height: Type.Integer(),
    byte_size: Type.Integer({ description: 'of the original' }),
    filename: Nullable(Type.String({ description: 'as the uploader named it' })),
    urls: Type.Object(
      { small: Type.String(), medium: Type.String(), original: Type.String() },
      { description: 'paths of the downloads (an API key with read on Animals needed)' },
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AnimalPhoto', description: 'A photo of an animal; the file is in the blob store, WebP sizes made at upload.' },
);
export type PhotoOut = Static<typeof Photo>;
export const PhotoList = Type.Object({ results: Type.Array(Photo), ...PageFieldsB });
export const PhotoListQuery = Type.Object({
  ...pageQueryB(100, 25),
  is_public: Type.Optional(Type.Boolean({ description: 'true: only public photos; false: only the others' })),
});

/** The multipart form of an upload (the OpenAPI request body); its text fields are checked with PhotoForm. */
export const PhotoUpload = Strict(
  {
    file: FileField,
    caption: Type.Optional(Caption),
    is_public: Type.Optional(StringEnum(['true', 'false'], { description: 'default false' })),
  },
  { description: 'multipart/form-data' },
);
export const PhotoForm = Type.Omit(PhotoUpload, ['file'], { additionalProperties: false });
export const PhotoPatch = Strict({
  caption: Type.Optional(Nullable(Caption)),
  is_public: Type.Optional(Type.Boolean()),
  is_primary: Type.Optional(Type.Literal(true, { description: 'true makes this the primary photo (the former primary stops being it)' })),
});
export type PhotoPatchIn = Static<typeof PhotoPatch>;

export const PublicPhoto = Type.Object(
  {
    id: Type.String(),
    caption: Nullable(Type.String()),
    is_primary: Type.Boolean(),
    width: Type.Integer(),
    height: Type.Integer(),
    urls: Type.Object({ small: Type.String(), medium: Type.String() }, { description: 'public paths, no key needed' }),
  },
  { $id: 'PublicAnimalPhoto', description: 'A public photo of a public animal, for the public website.' },
);
export const PublicPhotoList = Type.Object({ results: Type.Array(PublicPhoto), ...PageFieldsB });

export const Document = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    title: Type.String(),
    kind: StringEnum(DOCUMENT_KINDS),
    content_type: StringEnum(Object.keys(DOCUMENT_TYPES) as (keyof typeof DOCUMENT_TYPES)[], {
      description: 'what the uploaded file was found to be from its content',
    }),
    byte_size: Type.Integer(),
    filename: Nullable(Type.String({ description: 'as the uploader named it' })),
    url: Type.String({ description: 'path of the download (an API key with read on Animals needed)' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AnimalDocument', description: "A document on an animal's record (a vet record, a contract, a certificate)." },
);
export type DocumentOut = Static<typeof Document>;
export const DocumentList = Type.Object({ results: Type.Array(Document), ...PageFieldsB });
export const DocumentListQuery = Type.Object({
  ...pageQueryB(100, 25),
  kind: Type.Optional(StringEnum(DOCUMENT_KINDS)),
});
export const DocumentUpload = Strict(
  {
    file: FileField,
    title: Type.Optional(Title),
    kind: Type.Optional(StringEnum(DOCUMENT_KINDS, { description: 'default other' })),
  },
  { description: 'multipart/form-data' },
);
export const DocumentForm = Type.Omit(DocumentUpload, ['file'], { additionalProperties: false });
export const DocumentPatch = Strict({ title: Type.Optional(Title), kind: Type.Optional(StringEnum(DOCUMENT_KINDS)) });
export type DocumentPatchIn = Static<typeof DocumentPatch>;

/** A download: the file's bytes (the JSON error body when it fails). */
export const FileBody = Type.String({ format: 'binary', description: 'the file' });
