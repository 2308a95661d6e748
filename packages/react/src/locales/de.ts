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
  COMPLETED: 'der Lauf wurde abgeschlossen',
  FAILED: 'der Lauf ist fehlgeschlagen',
  CANCELLED: 'der Lauf wurde abgebrochen',
  WAITING: 'der Lauf wartete auf eine Antwort',
};

const finishNotices: Record<Exclude<FinishNoticeKind, 'other'>, string> = {
  'max-tokens': 'Am Längenlimit abgebrochen: Die Antwort ist möglicherweise unvollständig.',
  error: 'Der letzte Schritt des Agenten endete mit einem Fehler.',
  'tool-calls': 'Der letzte Schritt des Agenten endete mit einem Werkzeugaufruf.',
  cancelled: 'Der letzte Schritt des Agenten wurde abgebrochen.',
};

const failureWords: Record<FailureReason, string> = {
  unreachable: 'Der Server ist nicht erreichbar',
  timeout: 'Der Server hat nicht rechtzeitig geantwortet',
  unreadable: 'Die Antwort des Servers war nicht lesbar',
  busy: 'Eine andere Antwort in dieser Unterhaltung läuft noch',
  'too-long': 'Die Nachricht ist zu lang',
  'too-many': 'Zu viele Nachrichten. Warten Sie einen Moment und senden Sie sie dann erneut',
  'signed-out': 'Bitte melden Sie sich erneut an',
  forbidden: 'Sie dürfen hier keine Nachrichten senden',
  server: 'Auf dem Server ist ein Fehler aufgetreten',
  refused: 'Der Server hat sie abgelehnt',
};

const toolStatuses: Record<ToolCallStatus, string> = {
  running: 'läuft',
  succeeded: 'erledigt',
  failed: 'fehlgeschlagen',
};
const toolCount = plural('de', { one: () => '1 Werkzeugaufruf', other: (count) => `${count} Werkzeugaufrufe` });
const expiryDate = dateFormatter('de');

/** German labels: `<KestrelLabelsProvider labels={de}>`. */
export const de: KestrelLabels = {
  statusStarted: 'Lauf gestartet',
  statusWaiting: 'Wartet auf Ihre Antwort',
  statusFinished: 'Lauf abgeschlossen',
  statusFinishedWithNote: (note) => `Lauf abgeschlossen. ${note}`,
  statusFailed: 'Lauf fehlgeschlagen',
  statusFailedWithMessage: (message) => `Lauf fehlgeschlagen: ${message}`,
  statusPayloadInvalid: 'Das strukturierte Ergebnis passt nicht zum Schema dieser App.',
  statusCancelled: 'Lauf abgebrochen',
  statusDetached: 'Der Lauf wird nicht mehr verfolgt',
  statusConnectionLost: 'Verbindung verloren: kein Ergebnis erhalten',
  statusStreamEnded: 'Der Stream brach ab, bevor der Lauf fertig war',
  statusProtocolError: 'Der Server hat ein ungültiges Ereignis gesendet',
  statusProtocolErrorAfterOutcome: 'Der Server hat nach dem Ergebnis ein ungültiges Ereignis gesendet',
  statusRequestFailed: 'Anfrage fehlgeschlagen: kein Ergebnis erhalten',
  statusTimedOut: 'Keine rechtzeitige Antwort: kein Ergebnis erhalten',
  assistantRegion: 'Antwort des Assistenten',
  cancelledRegion: 'Antwort des Assistenten, vor dem Ende abgebrochen',
  failedRegion: 'Antwort des Assistenten aus einem fehlgeschlagenen Lauf',
  draftRegion: 'Antwort des Assistenten, in Arbeit',
  draftInProgress: 'Schreibt… (in Arbeit, nicht endgültig)',
  draftInterrupted: 'Unvollständiger Text, kein Ergebnis',
  answerContinues: '… (die Antwort geht auf der Seite weiter)',
  activity: 'Aktivität',
  activityReasoning: 'Überlegungen',
  activityTools: 'Werkzeugaufrufe',
  activityToolCount: toolCount,
  activityProgress: 'Fortschritt',
  activityLastStep: 'Letzter Schritt',
  activityLogs: 'Protokoll',
  toolStatus: (status) => toolStatuses[status],
  toolSchemaFailed: (value) =>
    `${value === 'input' ? 'Die Eingabe' : 'Die Ausgabe'} dieses Werkzeugaufrufs passt nicht zum Schema dieser App und wird daher so angezeigt, wie sie ankam:`,
  finishNotice: (kind, reason) =>
    kind === 'other' ? `Der letzte Schritt des Agenten endete mit dem Grund „${reason}“.` : finishNotices[kind],
  payloadRegion: 'Inhalt der Anwendung',
  payloadUnrendered: 'Dieser Lauf lieferte ein strukturiertes Ergebnis, das diese Ansicht nicht anzeigt.',
  payloadInvalid: 'Das strukturierte Ergebnis passt nicht zum Schema dieser App:',
  errorTitle: errorTitles({
    transport: 'Verbindung verloren',
    truncated: 'Der Stream endete, bevor der Lauf fertig war',
    protocol: 'Der Server hat etwas Unerwartetes gesendet',
    http: 'Die Anfrage ist fehlgeschlagen',
    timeout: 'Der Server hat nicht rechtzeitig geantwortet',
  }),
  errorUnreachable: 'Der Server war nicht erreichbar',
  errorProtocolWhere: protocolWhere({ event: 'Ereignis', field: 'Feld' }),
  errorTruncated: (lastSeq) => `Es kam kein Ergebnis an; das letzte Ereignis war seq ${lastSeq}.`,
  errorTimeout: (timeoutMs) => `Nach ${Math.round(timeoutMs / 1000)} s aufgegeben.`,
  errorAction: (mode) => (mode === 'resume' ? 'Neu verbinden' : 'Erneut versuchen'),
  errorAfterOutcome: 'Es kam an, nachdem das Ergebnis des Laufs schon eingetroffen war.',
  receivedOutcome: (status) => `Vor dem Fehler erhalten: ${receivedStatuses[status]}`,
  receivedInteraction: (prompt) => `Die Frage war: ${prompt}`,
  failedTitle: 'Der Lauf ist fehlgeschlagen',
  failedCode: (code) => `Fehlercode: ${code}`,
  retry: 'Erneut versuchen',
  cancelledTitle: (by) =>
    by === 'user'
      ? 'Sie haben den Lauf abgebrochen'
      : by === 'system'
        ? 'Das System hat den Lauf abgebrochen'
        : 'Der Lauf wurde abgebrochen',
  cancelledReason: (reason) => `Grund: ${reason}`,
  connecting: 'Verbinde…',
  reconnecting: (attempt, reason) => `Verbindung unterbrochen (${reason}). Neuer Verbindungsversuch ${attempt}…`,
  detached: 'Dieser Lauf wird nicht mehr verfolgt. Er läuft auf dem Server weiter.',
  followAgain: 'Wieder verfolgen',
  cancel: 'Lauf stoppen',
  cancelFailed: 'Der Lauf konnte nicht gestoppt werden und läuft weiter. Versuchen Sie es erneut.',
  copy: 'Antwort kopieren',
  copied: 'Kopiert',
  copyFailed: 'Kopieren nicht möglich',
  approve: 'Genehmigen',
  reject: 'Ablehnen',
  comment: 'Kommentar (optional)',
  action: 'Aktion',
  submit: 'Antwort senden',
  submitting: 'Wird gesendet…',
  required: 'erforderlich',
  chooseOption: 'Auswählen…',
  expiresIn: (remaining) => `Läuft ab in ${remaining}`,
  formatRemaining: remainingFormatter('de'),
  expiresOn: (deadline) => `Läuft ab am ${expiryDate(deadline)}`,
  expired: 'Diese Anfrage ist abgelaufen und kann nicht mehr beantwortet werden.',
  fixErrors: 'Bitte prüfen Sie die markierten Antworten.',
  answerIssue: answerIssueIn('de', {
    required: (field) => `${field} ist erforderlich`,
    'not-text': (field) => `${field} muss ein Text sein`,
    'not-number': (field) => `${field} muss eine Zahl sein`,
    'not-boolean': (field) => `${field} muss ja oder nein sein`,
    'not-an-option': (field, options) => `${field} muss eines davon sein: ${options}`,
    'choose-one': () => 'Wählen Sie eine Option',
    'choose-exactly-one': () => 'Wählen Sie genau eine Option',
    'answer-required': () => 'Eine Antwort ist erforderlich',
  }),
  rejected: (message) => `Ihre Antwort wurde nicht angenommen: ${message}`,
  unsent: (message) => `Ihre Antwort kam nicht an: ${message}. Sie bleibt hier erhalten: Senden Sie sie erneut.`,
  unsupported: (kind) => `Diese Anfrage („${kind}“) kann hier nicht beantwortet werden.`,
  answerNotTaken: (reason) =>
    reason === 'answered-elsewhere'
      ? 'Nicht gesendet: Diese Frage wurde bereits in einem anderen Tab oder auf einem anderen Gerät beantwortet.'
      : 'Nicht gesendet: Diese Frage ist nicht mehr offen.',
  sessionThread: 'Unterhaltung',
  sessionEmpty: 'Noch keine Nachrichten. Stellen Sie eine Frage, um zu beginnen.',
  sessionYou: 'Sie',
  sessionYourAnswer: 'Ihre Antwort',
  sessionAnswerApproval: (approved) => (approved ? 'Genehmigt' : 'Abgelehnt'),
  sessionAnswerYesNo: (value) => (value ? 'Ja' : 'Nein'),
  sessionAnswerNotSent: 'Ihre Antwort (nicht gesendet)',
  sessionQueued: 'In der Warteschlange: wird gesendet, wenn der aktuelle Lauf endet',
  sessionQueuedAnnouncement: 'Nachricht eingereiht. Sie wird gesendet, wenn der aktuelle Lauf endet.',
  sessionWithdraw: 'Zurückziehen',
  sessionSending: 'Wird gesendet…',
  sessionFailedToSend: (reason, httpStatus) =>
    `Nicht gesendet: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionSendAgain: 'Erneut senden',
  sessionMessage: 'Nachricht',
  sessionComposerHint: 'Eingabe sendet, Umschalt+Eingabe fügt eine Zeile ein.',
  sessionSend: 'Senden',
  sessionStop: 'Stoppen',
  sessionBusy: 'Ein Lauf ist im Gang. Warten Sie, bis er endet.',
  sessionWaitingHint: 'Oben wartet eine Frage auf Ihre Antwort. Eine Nachricht von hier beantwortet sie nicht.',
  sessionWaitingBlocked: 'Beantworten Sie zuerst die Frage oben. Nachrichten gehen, sobald dieser Lauf endet.',
  sessionLoadOlder: 'Ältere Nachrichten laden',
  sessionLoadingOlder: 'Ältere Nachrichten werden geladen…',
  sessionHistoryUnavailable: 'Ältere Nachrichten sind auf diesem Server nicht verfügbar.',
  sessionNotFound:
    'Diese Unterhaltung wurde nicht gefunden, sie ist vielleicht abgelaufen. Ihre nächste Nachricht beginnt eine neue.',
  sessionHistoryError: (reason, httpStatus) =>
    `Ältere Nachrichten konnten nicht geladen werden: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionHistoryStart: 'Beginn der Unterhaltung',
  sessionJumpToLatest: 'Zur neuesten Nachricht',
};
