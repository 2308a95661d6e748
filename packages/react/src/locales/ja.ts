import type { RunOutputStatus, ToolCallStatus } from '@kestrel/core';
import type { FinishNoticeKind } from '../components/finish-notice.js';
import type { KestrelLabels } from '../components/labels.js';
import { httpSuffix, type FailureReason } from '../components/session/failure-reason.js';
import {
  answerIssueIn,
  dateFormatter,
  errorTitles,
  plural,
  protocolWhere,
  remainingFormatter,
} from './locale-format.js';

const receivedStatuses: Record<RunOutputStatus, string> = {
  COMPLETED: '実行は完了していました',
  FAILED: '実行は失敗していました',
  CANCELLED: '実行はキャンセルされていました',
  WAITING: '実行は回答を待っていました',
};

const finishNotices: Record<Exclude<FinishNoticeKind, 'other'>, string> = {
  'max-tokens': '長さの上限で停止しました。回答が不完全な可能性があります。',
  error: 'エージェントの最後のターンはエラーで終了しました。',
  'tool-calls': 'エージェントの最後のターンはツール呼び出しで終了しました。',
  cancelled: 'エージェントの最後のターンはキャンセルされました。',
};

const failureWords: Record<FailureReason, string> = {
  unreachable: 'サーバーに接続できません',
  timeout: 'サーバーが時間内に応答しませんでした',
  unreadable: 'サーバーの応答を読み取れませんでした',
  busy: 'この会話の別の応答がまだ実行中です',
  'too-long': 'メッセージが長すぎます',
  'too-many': 'メッセージが多すぎます。少し待ってから再送信してください',
  'signed-out': 'もう一度サインインしてください',
  forbidden: 'ここでメッセージを送信する権限がありません',
  server: 'サーバーで問題が発生しました',
  refused: 'サーバーに拒否されました',
};

const toolStatuses: Record<ToolCallStatus, string> = { running: '実行中', succeeded: '完了', failed: '失敗' };
// Japanese has one plural form; the counter word 件 follows the number.
const toolCount = plural('ja', { other: (count) => `ツール呼び出し ${count} 件` });
const expiryDate = dateFormatter('ja');

/** Japanese labels: `<KestrelLabelsProvider labels={ja}>`. */
export const ja: KestrelLabels = {
  statusStarted: '実行を開始しました',
  statusWaiting: '回答を待っています',
  statusFinished: '実行が完了しました',
  statusFinishedWithNote: (note) => `実行が完了しました。${note}`,
  statusFailed: '実行に失敗しました',
  statusFailedWithMessage: (message) => `実行に失敗しました：${message}`,
  statusPayloadInvalid: '構造化された結果がアプリのスキーマに一致しません。',
  statusCancelled: '実行はキャンセルされました',
  statusDetached: '実行の追跡を停止しました',
  statusConnectionLost: '接続が切れました。結果は受信していません',
  statusStreamEnded: '実行の完了前にストリームが途切れました',
  statusProtocolError: 'サーバーが無効なイベントを送信しました',
  statusProtocolErrorAfterOutcome: 'サーバーが結果の後に無効なイベントを送信しました',
  statusRequestFailed: 'リクエストに失敗しました。結果は受信していません',
  statusTimedOut: '時間内に応答がありません。結果は受信していません',
  assistantRegion: 'アシスタントの回答',
  cancelledRegion: 'アシスタントの回答（途中で停止）',
  failedRegion: 'アシスタントの回答（失敗した実行）',
  draftRegion: 'アシスタントの回答（作成中）',
  draftInProgress: '作成中…（途中経過であり、確定ではありません）',
  draftInterrupted: '不完全なテキストです。結果ではありません',
  answerContinues: '…（回答の続きはページにあります）',
  activity: 'アクティビティ',
  activityReasoning: '推論',
  activityTools: 'ツール呼び出し',
  activityToolCount: toolCount,
  activityProgress: '進捗',
  activityLastStep: '最後のステップ',
  activityLogs: 'ログ',
  toolStatus: (status) => toolStatuses[status],
  toolSchemaFailed: (value) =>
    `このツール呼び出しの${value === 'input' ? '入力' : '出力'}はアプリのスキーマに一致しないため、受信したまま表示しています：`,
  finishNotice: (kind, reason) =>
    kind === 'other' ? `エージェントの最後のターンは理由「${reason}」で終了しました。` : finishNotices[kind],
  payloadRegion: 'アプリのコンテンツ',
  payloadUnrendered: 'この実行は、このビューでは表示しない構造化された結果を返しました。',
  payloadInvalid: '構造化された結果がアプリのスキーマに一致しません：',
  errorTitle: errorTitles({
    transport: '接続が切れました',
    truncated: '実行の完了前にストリームが終了しました',
    protocol: 'サーバーが予期しないデータを送信しました',
    http: 'リクエストに失敗しました',
    timeout: 'サーバーが時間内に応答しませんでした',
  }),
  errorUnreachable: 'サーバーに接続できませんでした',
  errorProtocolWhere: protocolWhere({ event: 'イベント', field: 'フィールド' }, '、'),
  errorTruncated: (lastSeq) => `結果を受信していません。最後のイベントは seq ${lastSeq} でした。`,
  errorTimeout: (timeoutMs) => `${Math.round(timeoutMs / 1000)} 秒で中止しました。`,
  errorAction: (mode) => (mode === 'resume' ? '再接続' : '再試行'),
  errorAfterOutcome: '実行の結果を受信した後に届きました。',
  receivedOutcome: (status) => `エラーの前に受信：${receivedStatuses[status]}`,
  receivedInteraction: (prompt) => `質問：${prompt}`,
  failedTitle: '実行に失敗しました',
  failedCode: (code) => `エラーコード：${code}`,
  retry: 'もう一度試す',
  cancelledTitle: (by) =>
    by === 'user'
      ? '実行をキャンセルしました'
      : by === 'system'
        ? 'システムが実行をキャンセルしました'
        : '実行はキャンセルされました',
  cancelledReason: (reason) => `理由：${reason}`,
  connecting: '接続中…',
  reconnecting: (attempt, reason) => `接続が中断されました（${reason}）。再接続中（${attempt} 回目）…`,
  detached: 'この実行の追跡を停止しました。サーバー上では続行しています。',
  followAgain: '再び追跡する',
  cancel: '実行を停止',
  cancelFailed: '実行を停止できませんでした。実行は続いています。もう一度お試しください。',
  copy: '回答をコピー',
  copied: 'コピーしました',
  copyFailed: 'コピーできませんでした',
  approve: '承認',
  reject: '却下',
  comment: 'コメント（任意）',
  action: 'アクション',
  submit: '回答を送信',
  submitting: '送信中…',
  required: '必須',
  chooseOption: '選択してください…',
  expiresIn: (remaining) => `残り ${remaining}`,
  formatRemaining: remainingFormatter('ja'),
  expiresOn: (deadline) => `期限：${expiryDate(deadline)}`,
  expired: 'このリクエストは期限切れのため、回答できません。',
  fixErrors: '強調表示された回答を確認してください。',
  answerIssue: answerIssueIn('ja', {
    required: (field) => `${field}は必須です`,
    'not-text': (field) => `${field}はテキストで入力してください`,
    'not-number': (field) => `${field}は数値で入力してください`,
    'not-boolean': (field) => `${field}ははい・いいえで選んでください`,
    'not-an-option': (field, options) => `${field}は次のいずれかにしてください：${options}`,
    'choose-one': () => 'オプションを選んでください',
    'choose-exactly-one': () => 'オプションを1つだけ選んでください',
    'answer-required': () => '回答を入力してください',
  }),
  rejected: (message) => `回答は受け付けられませんでした：${message}`,
  unsent: (message) => `回答を送信できませんでした：${message}。内容はここに残っています。もう一度送信してください。`,
  unsupported: (kind) => `このリクエスト（「${kind}」）にはここでは回答できません。`,
  answerNotTaken: (reason) =>
    reason === 'answered-elsewhere'
      ? '送信されませんでした: この質問は別のタブまたは別のデバイスですでに回答されています。'
      : '送信されませんでした: この質問はすでに締め切られています。',
  sessionThread: '会話',
  sessionEmpty: 'まだメッセージはありません。質問して始めましょう。',
  sessionYou: 'あなた',
  sessionYourAnswer: 'あなたの回答',
  sessionAnswerApproval: (approved) => (approved ? '承認しました' : '却下しました'),
  sessionAnswerYesNo: (value) => (value ? 'はい' : 'いいえ'),
  sessionAnswerNotSent: 'あなたの回答（未送信）',
  sessionQueued: '待機中: 現在の実行が終わると送信されます',
  sessionQueuedAnnouncement: 'メッセージを待機させました。現在の実行が終わると送信されます。',
  sessionWithdraw: '取り下げる',
  sessionSending: '送信中…',
  sessionFailedToSend: (reason, httpStatus) =>
    `送信できませんでした: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}。`,
  sessionSendAgain: '再送信',
  sessionMessage: 'メッセージ',
  sessionComposerHint: 'Enter で送信、Shift+Enter で改行します。',
  sessionSend: '送信',
  sessionStop: '停止',
  sessionBusy: '実行中です。終わるまでお待ちください。',
  sessionWaitingHint: '上の質問があなたの回答を待っています。ここから送るメッセージは回答になりません。',
  sessionWaitingBlocked: '先に上の質問に回答してください。その実行が終わるとメッセージを送れます。',
  sessionLoadOlder: '以前のメッセージを読み込む',
  sessionLoadingOlder: '以前のメッセージを読み込み中…',
  sessionHistoryUnavailable: 'このサーバーでは以前のメッセージを利用できません。',
  sessionNotFound:
    'この会話は見つかりませんでした。期限切れの可能性があります。次のメッセージで新しい会話が始まります。',
  sessionHistoryError: (reason, httpStatus) =>
    `以前のメッセージを読み込めませんでした: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}。`,
  sessionHistoryStart: '会話の始まり',
  sessionJumpToLatest: '最新へ移動',
};
