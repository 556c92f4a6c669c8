// Which protocol revision family a request is served on: 'legacy' (2025-11-25 and earlier, sessions) or 'modern'
// (2026-07-28, per-request).
export type ProtocolEra = 'legacy' | 'modern';
