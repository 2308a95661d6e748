import { formatPath, type IssuePath } from '../protocol/protocol-error.js';

/** One thing wrong in a recording file: where (`entries[3].t`) and what. */
export interface RecordingIssue {
  readonly path: IssuePath;
  readonly message: string;
}

/**
 * A value is not a version-1 Kestrel recording. `issues` names every field that is wrong; `message` the first,
 * with its path (`Not a Kestrel recording: entries[3].t: expected number, received string`).
 */
export class RecordingFormatError extends Error {
  override readonly name = 'RecordingFormatError';
  readonly issues: readonly RecordingIssue[];
  /** The path of the first issue. */
  readonly path: IssuePath;

  constructor(issues: readonly RecordingIssue[]) {
    const first = issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : `${formatPath(first.path)}: `;
    super(
      `Not a Kestrel recording: ${where}${first?.message ?? 'invalid'}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
    );
    this.issues = issues;
    this.path = first?.path ?? [];
  }
}
