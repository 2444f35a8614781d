// Wire types of seed 002's records API (docs/records.md) as the records view reads them.

export interface RecordMessage {
  id: string;
  turn_id: string;
  sender_role: 'human' | 'ai' | 'system';
  sender_id: string | null;
  content: string;
  content_type: string;
  content_meta: { caption?: string; transcription?: string; text?: string } | null;
  created_at: string;
  metadata?: { toolCalls?: { id?: string; name?: string; arguments?: unknown }[]; name?: string } | null;
}

export interface RecordTurn {
  id: string;
  turn_type: string;
  initiator_role: string;
  responder_role: string;
  started_at: string;
  closed_at: string | null;
  status: 'pending' | 'responded' | 'unresponded';
  response_time: number | null;
  deadline_at: string | null;
  messages?: RecordMessage[];
  /** With `include=messages`: how many the turn has, and the route to those past include_limit. */
  messages_total?: number;
  messages_next?: string | null;
}

export interface RecordSession {
  id: string;
  session_type: 'dialogue' | 'self_reflection';
  start_at: string;
  end_at: string | null;
  goal?: string | null;
  summary?: string | null;
  trigger_source?: string | null;
}
