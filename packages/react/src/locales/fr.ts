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
  COMPLETED: 'l’exécution était terminée',
  FAILED: 'l’exécution avait échoué',
  CANCELLED: 'l’exécution avait été annulée',
  WAITING: 'l’exécution attendait une réponse',
};

const finishNotices: Record<Exclude<FinishNoticeKind, 'other'>, string> = {
  'max-tokens': 'Arrêtée à la limite de longueur : la réponse est peut-être incomplète.',
  error: 'Le dernier tour de l’agent s’est terminé par une erreur.',
  'tool-calls': 'Le dernier tour de l’agent s’est terminé par un appel d’outil.',
  cancelled: 'Le dernier tour de l’agent a été annulé.',
};

const failureWords: Record<FailureReason, string> = {
  unreachable: 'impossible de joindre le serveur',
  timeout: 'le serveur n’a pas répondu à temps',
  unreadable: 'la réponse du serveur est illisible',
  busy: 'une autre réponse de cette discussion est encore en cours',
  'too-long': 'le message est trop long',
  'too-many': 'trop de messages. Attendez un instant, puis renvoyez-le',
  'signed-out': 'reconnectez-vous',
  forbidden: 'vous n’êtes pas autorisé à envoyer des messages ici',
  server: 'le serveur a rencontré un problème',
  refused: 'le serveur l’a refusé',
};

const toolStatuses: Record<ToolCallStatus, string> = { running: 'en cours', succeeded: 'terminé', failed: 'échec' };
// French "one" covers 0 and 1 (« 0 appel d’outil »); "many" (a million and up) takes « d’ ».
const toolCount = plural('fr', {
  one: (count) => `${count} appel d’outil`,
  many: (count) => `${new Intl.NumberFormat('fr').format(count)} d’appels d’outil`,
  other: (count) => `${new Intl.NumberFormat('fr').format(count)} appels d’outil`,
});
const expiryDate = dateFormatter('fr');

/** French labels: `<KestrelLabelsProvider labels={fr}>`. */
export const fr: KestrelLabels = {
  statusStarted: 'Exécution démarrée',
  statusWaiting: 'En attente de votre réponse',
  statusFinished: 'Exécution terminée',
  statusFinishedWithNote: (note) => `Exécution terminée. ${note}`,
  statusFailed: 'Échec de l’exécution',
  statusFailedWithMessage: (message) => `Échec de l’exécution : ${message}`,
  statusPayloadInvalid: 'Le résultat structuré ne correspond pas au schéma de cette application.',
  statusCancelled: 'Exécution annulée',
  statusDetached: 'L’exécution n’est plus suivie',
  statusConnectionLost: 'Connexion perdue : aucun résultat reçu',
  statusStreamEnded: 'Le flux s’est interrompu avant la fin de l’exécution',
  statusProtocolError: 'Le serveur a envoyé un événement invalide',
  statusProtocolErrorAfterOutcome: 'Le serveur a envoyé un événement invalide après le résultat',
  statusRequestFailed: 'Échec de la requête : aucun résultat reçu',
  statusTimedOut: 'Pas de réponse à temps : aucun résultat reçu',
  assistantRegion: 'Réponse de l’assistant',
  cancelledRegion: 'Réponse de l’assistant, arrêtée avant la fin',
  failedRegion: 'Réponse de l’assistant, d’une exécution qui a échoué',
  draftRegion: 'Réponse de l’assistant, en cours',
  draftInProgress: 'Rédaction… (en cours, non définitif)',
  draftInterrupted: 'Texte incomplet, pas un résultat',
  answerContinues: '… (la suite de la réponse est sur la page)',
  activity: 'Activité',
  activityReasoning: 'Raisonnement',
  activityTools: 'Appels d’outils',
  activityToolCount: toolCount,
  activityProgress: 'Progression',
  activityLastStep: 'Dernière étape',
  activityLogs: 'Journal',
  toolStatus: (status) => toolStatuses[status],
  toolSchemaFailed: (value) =>
    `${value === 'input' ? 'L’entrée' : 'La sortie'} de cet appel d’outil ne correspond pas au schéma de cette application ; elle est affichée telle quelle :`,
  finishNotice: (kind, reason) =>
    kind === 'other' ? `Le dernier tour de l’agent s’est terminé avec la raison « ${reason} ».` : finishNotices[kind],
  payloadRegion: 'Contenu de l’application',
  payloadUnrendered: 'Cette exécution a renvoyé un résultat structuré que cette vue n’affiche pas.',
  payloadInvalid: 'Le résultat structuré ne correspond pas au schéma de cette application :',
  errorTitle: errorTitles({
    transport: 'Connexion perdue',
    truncated: 'Le flux s’est arrêté avant la fin de l’exécution',
    protocol: 'Le serveur a envoyé quelque chose d’inattendu',
    http: 'La requête a échoué',
    timeout: 'Le serveur n’a pas répondu à temps',
  }),
  errorUnreachable: 'Impossible de joindre le serveur',
  errorProtocolWhere: protocolWhere({ event: 'événement', field: 'champ' }),
  errorTruncated: (lastSeq) => `Aucun résultat reçu ; le dernier événement était seq ${lastSeq}.`,
  errorTimeout: (timeoutMs) => `Abandon après ${Math.round(timeoutMs / 1000)} s.`,
  errorAction: (mode) => (mode === 'resume' ? 'Se reconnecter' : 'Réessayer'),
  errorAfterOutcome: 'Il est arrivé après la réception du résultat de l’exécution.',
  receivedOutcome: (status) => `Reçu avant l’erreur : ${receivedStatuses[status]}`,
  receivedInteraction: (prompt) => `La question était : ${prompt}`,
  failedTitle: 'L’exécution a échoué',
  failedCode: (code) => `Code d’erreur : ${code}`,
  retry: 'Réessayer',
  cancelledTitle: (by) =>
    by === 'user'
      ? 'Vous avez annulé l’exécution'
      : by === 'system'
        ? 'Le système a annulé l’exécution'
        : 'L’exécution a été annulée',
  cancelledReason: (reason) => `Raison : ${reason}`,
  connecting: 'Connexion…',
  reconnecting: (attempt, reason) => `Connexion interrompue (${reason}). Reconnexion, tentative ${attempt}…`,
  detached: 'Cette exécution n’est plus suivie. Elle continue sur le serveur.',
  followAgain: 'Suivre à nouveau',
  cancel: 'Arrêter l’exécution',
  cancelFailed: 'L’exécution n’a pas pu être arrêtée et se poursuit. Réessayez.',
  copy: 'Copier la réponse',
  copied: 'Copié',
  copyFailed: 'Copie impossible',
  approve: 'Approuver',
  reject: 'Refuser',
  comment: 'Commentaire (facultatif)',
  action: 'Action',
  submit: 'Envoyer la réponse',
  submitting: 'Envoi…',
  required: 'obligatoire',
  chooseOption: 'Choisir…',
  expiresIn: (remaining) => `Expire dans ${remaining}`,
  formatRemaining: remainingFormatter('fr'),
  expiresOn: (deadline) => `Expire le ${expiryDate(deadline)}`,
  expired: 'Cette demande a expiré et ne peut plus recevoir de réponse.',
  fixErrors: 'Vérifiez les réponses signalées.',
  answerIssue: answerIssueIn('fr', {
    required: (field) => `${field} est obligatoire`,
    'not-text': (field) => `${field} doit être un texte`,
    'not-number': (field) => `${field} doit être un nombre`,
    'not-boolean': (field) => `${field} doit être oui ou non`,
    'not-an-option': (field, options) => `${field} doit être l’une de ces valeurs : ${options}`,
    'choose-one': () => 'Choisissez une option',
    'choose-exactly-one': () => 'Choisissez une seule option',
    'answer-required': () => 'Une réponse est requise',
  }),
  rejected: (message) => `Votre réponse n’a pas été acceptée : ${message}`,
  unsent: (message) => `Votre réponse n’est pas passée : ${message}. Elle est conservée ici : renvoyez-la.`,
  unsupported: (kind) => `Cette demande (« ${kind} ») ne peut pas recevoir de réponse ici.`,
  answerNotTaken: (reason) =>
    reason === 'answered-elsewhere'
      ? 'Non envoyée : cette question a déjà reçu une réponse dans un autre onglet ou sur un autre appareil.'
      : 'Non envoyée : cette question n’est plus ouverte.',
  sessionThread: 'Discussion',
  sessionEmpty: 'Aucun message pour l’instant. Posez une question pour commencer.',
  sessionYou: 'Vous',
  sessionYourAnswer: 'Votre réponse',
  sessionAnswerApproval: (approved) => (approved ? 'Approuvé' : 'Refusé'),
  sessionAnswerYesNo: (value) => (value ? 'Oui' : 'Non'),
  sessionAnswerNotSent: 'Votre réponse (non envoyée)',
  sessionQueued: 'En attente : envoyé à la fin de l’exécution en cours',
  sessionQueuedAnnouncement: 'Message mis en attente. Il sera envoyé à la fin de l’exécution en cours.',
  sessionWithdraw: 'Retirer',
  sessionSending: 'Envoi…',
  sessionFailedToSend: (reason, httpStatus) => `Non envoyé : ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionSendAgain: 'Renvoyer',
  sessionMessage: 'Votre message',
  sessionComposerHint: 'Entrée envoie, Maj+Entrée ajoute une ligne.',
  sessionSend: 'Envoyer',
  sessionStop: 'Arrêter',
  sessionBusy: 'Une exécution est en cours. Attendez qu’elle se termine.',
  sessionWaitingHint: 'Une question plus haut attend votre réponse. Un message envoyé ici n’y répond pas.',
  sessionWaitingBlocked:
    'Répondez d’abord à la question plus haut. Les messages partiront à la fin de cette exécution.',
  sessionLoadOlder: 'Charger les messages précédents',
  sessionLoadingOlder: 'Chargement des messages précédents…',
  sessionHistoryUnavailable: 'Les messages précédents ne sont pas disponibles sur ce serveur.',
  sessionNotFound:
    'Cette conversation est introuvable : elle a peut-être expiré. Votre prochain message en commence une nouvelle.',
  sessionHistoryError: (reason, httpStatus) =>
    `Les messages précédents n’ont pas pu être chargés : ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionHistoryStart: 'Début de la conversation',
  sessionJumpToLatest: 'Aller au plus récent',
};
