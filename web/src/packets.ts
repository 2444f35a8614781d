// What arrives on the PubChan is checked against the protocol's field table (protocol.gen.ts,
// generated from docs/protocol-v1.json) before the page looks at it: a known `type`, every
// required field there, every field of its JSON kind. Past this point packets are narrowed by
// their `type` alone, never cast.
import { SERVER_PACKETS, type FieldSpec, type ServerPacket } from './protocol.gen';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindProblem(value: unknown, spec: FieldSpec): string | null {
  switch (spec.kind) {
    case 'string':
      if (typeof value !== 'string') return 'expected a string';
      if (spec.value !== undefined && value !== spec.value) return `expected "${spec.value}"`;
      return null;
    case 'integer':
      return Number.isInteger(value) ? null : 'expected an integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'expected a boolean';
    case 'array':
      return Array.isArray(value) ? null : 'expected an array';
    case 'object':
      return isRecord(value) ? null : 'expected an object';
    case 'any':
      return null;
  }
}

/** The first field of `obj` that breaks `fields`, named by its path; null when none does. */
function fieldsProblem(obj: Record<string, unknown>, fields: Record<string, FieldSpec>, prefix: string): string | null {
  for (const [name, spec] of Object.entries(fields)) {
    const value = obj[name];
    if (value === undefined || (value === null && !spec.required)) {
      if (spec.required) return `${prefix}${name}: missing`;
      continue;
    }
    const problem = kindProblem(value, spec);
    if (problem) return `${prefix}${name}: ${problem}`;
    if (spec.fields && isRecord(value)) {
      const inner = fieldsProblem(value, spec.fields, `${prefix}${name}.`);
      if (inner) return inner;
    }
  }
  return null;
}

function isKnownType(type: unknown): type is ServerPacket['type'] {
  return typeof type === 'string' && Object.hasOwn(SERVER_PACKETS, type);
}

/** Why `value` is not a server packet of protocol v1 (the field named), or null when it is one. */
export function serverPacketProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'not a JSON object';
  const type = value.type;
  if (!isKnownType(type)) return `type: unknown packet type ${JSON.stringify(type)}`;
  const problem = fieldsProblem(value, SERVER_PACKETS[type], '');
  return problem ? `${type}: ${problem}` : null;
}

export function isServerPacket(value: unknown): value is ServerPacket {
  return serverPacketProblem(value) === null;
}
