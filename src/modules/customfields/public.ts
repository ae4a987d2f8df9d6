/**
 * What other modules may use of the custom fields module. The table `custom_field_definitions` belongs
 * to this module: other modules check values through these functions and never read or write it.
 */
export { checkFreeformFields, type FreeformFields, type FreeformValue } from './freeform.ts';
export { checkCustomFields, type CustomFieldEntity } from './values.ts';
export { insertDefinition, type FieldType } from './repository.ts';
/** One value against a field type and options (pure), for forms built from the same field types. */
export { checkValue } from './values.ts';
export { FIELD_TYPES } from './repository.ts';
