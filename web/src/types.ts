// Wire types of docs/server.md (REST and PubChan protocol v1). Fields the UI does not use are omitted.
// The PubChan's packets are generated from docs/protocol-v1.json into protocol.gen.ts.
import type { ServerPacket } from './protocol.gen';

export interface DialogSummary {
  id: string;
  rootId: string;
  parentId: string | null;
  memberId: string;
  kind: 'root' | 'sub';
  callKind?: string;
  sessionSlug?: string;
  status: 'running' | 'completed' | 'archived' | string;
  title?: string;
  taskDocPath?: string | null;
  course?: number;
  depth?: number;
  generating?: boolean;
  needsDrive?: boolean;
  dead?: boolean;
  openQuestions?: number;
  pendingSubdialogs?: number;
  hasChildren?: boolean;
  inputTokens?: number;
  outputTokens?: number;
  createdAt?: string;
  updatedAt?: string;
  lastError?: string;
  /** Only from GET /api/dialogs/{id} and dialog_state_evt: whether POST resume would drive it. */
  resumable?: boolean;
  resumeReason?: 'interrupted' | 'failed' | 'unanswered_calls' | 'unread_input' | null;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface Message {
  seq: number;
  course?: number;
  genseq?: number;
  role: 'user' | 'assistant' | 'tool';
  origin?: string;
  content?: string;
  thinking?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  toolName?: string;
  ok?: boolean;
  interrupted?: boolean;
  ts?: string;
  /** A user message's image or recording. */
  attachment?: MessageAttachment;
}

export interface Transcript {
  course: number;
  courses: number;
  messages: Message[];
  total: number;
}

export interface Member {
  id: string;
  name?: string;
  provider?: string;
  /** The kind of provider that answers (after a fallback): `scripted` when no real model does. */
  providerKind?: string;
  model?: string;
  /** `flow`: a phase-driven agent of seed 004, whose dialogs are threads (flow_view.ts). */
  kind?: 'llm' | 'flow';
  tools?: string[];
}

export interface Team {
  defaultMember?: string;
  language?: string;
  members: Member[];
}

// GET /api/problems: what the team asks for that Parley cannot honour (docs/team-yaml.md "Problems").
export interface Problem {
  file: string;
  line: number;
  column: number;
  member: string | null;
  what: string;
  why: string;
  blocksMember: boolean;
  text: string;
}

export interface Status {
  version?: string;
  protocol?: number;
  /** Run control's counts among the dialogs this user sees (docs/server.md). */
  dialogs?: { running: number; resumable: number };
  scriptedOffline?: boolean;
  providers?: Record<string, string>;
  authRequired?: boolean;
}

export interface Question {
  dialog: { selfId: string; rootId: string };
  memberId: string;
  course?: number;
  id: string;
  mentionList?: string;
  tellaskContent: string;
  askedAt?: string;
  callId?: string;
}

export interface Reminder {
  index: number;
  content: string;
}

export interface RegistryEntry {
  key: string;
  subdialogId: string;
  agentId: string;
  sessionSlug: string;
  createdAt?: string;
  lastAccessed?: string;
  locked?: boolean;
}

export interface Taskdoc {
  path: string;
  sections: { goals?: string; constraints?: string; progress?: string };
}

/** Any packet the page handles: what the server sends (protocol.gen.ts, from docs/protocol-v1.json)
 * and the `resync` the PubChan client makes itself when a reconnect cannot replay what was missed. */
export type Packet = ServerPacket | LocalResyncPacket;

export interface LocalResyncPacket {
  type: 'resync';
  dialog: { selfId: string; rootId?: undefined };
  local: true;
}

/** An image or recording a user message carries (docs/server.md "Uploads and attachments"). */
export interface MessageAttachment {
  uploadId: string;
  url: string;
  kind: 'image' | 'audio';
  mime?: string;
  format?: string;
  sizeKb?: number;
  caption?: string;
  transcription?: string;
  describedBy?: string;
}

/** What a message sends along: the uploader's own upload, with the words for it if the user gives them. */
export interface Attachment {
  uploadId: string;
  caption?: string;
  transcription?: string;
}

/** POST /api/uploads' answer. */
export interface Upload {
  id: string;
  url: string;
  content_type: 'image' | 'audio';
  mime: string;
  format: string;
  size_kb: number;
}

/** POST /api/tot's answer (docs/tot.md). */
export interface TotStart {
  taskId: string;
  rootDialog: string;
}

/** Seed 003's ThoughtNode as GET /api/tot/{taskId} gives it. */
export interface ThoughtNode {
  id: string;
  parent_id: string | null;
  children_ids: string[];
  depth: number;
  content: string;
  action_type: string;
  evaluation: { score: number; confidence: number; reasoning: string } | null;
  status: 'pending' | 'expanded' | 'pruned' | 'terminal';
  metadata: Record<string, unknown>;
}

/** Seed 003's final_solution payload. */
export interface FinalSolution {
  answer: string;
  reasoning_trace: string[];
  confidence: number;
  verification: { is_valid: boolean; validation_errors: string[] };
  alternative_solutions: string[];
}

/** GET /api/tot/{taskId}: the thought tree as it grows and, once done, the final solution.
 * interrupted: the server stopped while the run searched (its log folder keeps what it did). */
export interface TotRun {
  taskId: string;
  rootDialog: string;
  status: 'running' | 'solved' | 'failed' | 'interrupted';
  nodes: ThoughtNode[];
  bestPath: string[];
  finalSolution?: FinalSolution;
}
