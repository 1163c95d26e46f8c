// The event a data-driven form sends: each field's value under its key, optional fields left out when empty (or
// sent as null), numbers as numbers, text trimmed, combatant lists wrapped when the event wants objects.
interface EventField {
  key: string;
  kind: string;
  optional?: boolean | undefined;
  emptyAs?: 'omit' | 'null' | undefined;
  wrap?: string | undefined;
}

export function formEvent(type: string, fields: readonly EventField[], values: Record<string, unknown>): Record<string, unknown> {
  const event: Record<string, unknown> = { type };
  for (const field of fields) {
    const value = values[field.key];
    if (field.optional && (value === '' || value === null || value === undefined || value === false)) {
      if (field.emptyAs === 'null') event[field.key] = null;
      continue;
    }
    if (field.kind === 'combatants' && field.wrap) event[field.key] = (value as string[]).map((id) => ({ [field.wrap!]: id }));
    else event[field.key] = field.kind === 'integer' ? Number(value) : field.kind === 'text' ? String(value ?? '').trim() : value;
  }
  return event;
}
