import { Type, type Static, type TSchema, type SchemaOptions } from '@sinclair/typebox';

export { Type, type Static, type TSchema };

/**
 * `T | null` as a JSON Schema type list (fast to validate and serialize, no anyOf). A closed set
 * (`enum`) gets `null` among its values too, so the description admits the null it serves.
 */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}) {
  const { type, ...rest } = schema as TSchema & { type?: string; enum?: unknown[] };
  const closed = Array.isArray(rest.enum) && !rest.enum.includes(null) ? { enum: [...rest.enum, null] } : {};
  return Type.Unsafe<Static<T> | null>({ ...rest, ...closed, ...options, type: [type ?? 'string', 'null'] });
}

/**
 * A string the spec does not mark nullable but a record may lack: handlers may pass null, and the
 * wire carries "" (the serializer writes null as an empty string for a string schema).
 */
export function TextOrEmpty(options: SchemaOptions = {}) {
  return Type.Unsafe<string | null>({ type: 'string', description: 'empty string when there is none', ...options });
}

/** A date (YYYY-MM-DD) the spec does not mark nullable: "" when there is none (handlers may pass null). */
export function DateOrEmpty(options: SchemaOptions = {}) {
  return Type.Unsafe<string | null>({
    type: 'string',
    pattern: '^(\\d{4}-\\d{2}-\\d{2})?$',
    description: 'a date YYYY-MM-DD; empty string when there is none',
    ...options,
  });
}

/** One of a closed set, or "" when there is none (handlers may pass null). */
export function EnumOrEmpty<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number] | '' | null>({
    type: 'string',
    enum: [...values, ''],
    description: 'empty string when there is none',
    ...options,
  });
}

export const DateString = (options: SchemaOptions = {}) => Type.String({ format: 'date', ...options });
/** Serialized as ISO 8601; handlers may hand over a Date. */
export const Timestamp = (options: SchemaOptions = {}) => Type.Unsafe<string | Date>({ type: 'string', format: 'date-time', ...options });
export const Id = (description = 'opaque id with a type prefix') => Type.String({ minLength: 1, maxLength: 64, description });

/** A closed set of strings, rendered as `enum` in the OpenAPI description. */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** Strict object: unknown properties are refused (422), never silently dropped. */
export function Strict<T extends Parameters<typeof Type.Object>[0]>(props: T, options: SchemaOptions = {}) {
  return Type.Object(props, { additionalProperties: false, ...options });
}

export const ErrorA = Type.Object(
  {
    error: Type.Object({
      code: Type.String({
        description:
          'BAD_REQUEST, VALIDATION_ERROR, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, PAYLOAD_TOO_LARGE, ' +
          'UNSUPPORTED_MEDIA_TYPE, RATE_LIMITED, INTERNAL',
      }),
      message: Type.String(),
      fields: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    }),
  },
  { $id: 'ErrorA', description: 'Family A error body' },
);
export const ErrorB = Type.Object(
  { error: Type.String({ description: 'one sentence fit to show to a person' }) },
  { $id: 'ErrorB', description: 'Family B error body' },
);
