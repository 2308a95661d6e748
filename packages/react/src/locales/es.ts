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
  COMPLETED: 'la ejecución había terminado',
  FAILED: 'la ejecución había fallado',
  CANCELLED: 'la ejecución había sido cancelada',
  WAITING: 'la ejecución esperaba una respuesta',
};

const finishNotices: Record<Exclude<FinishNoticeKind, 'other'>, string> = {
  'max-tokens': 'Se detuvo en el límite de longitud: puede que la respuesta esté incompleta.',
  error: 'El último turno del agente terminó con un error.',
  'tool-calls': 'El último turno del agente terminó con una llamada a una herramienta.',
  cancelled: 'El último turno del agente fue cancelado.',
};

const failureWords: Record<FailureReason, string> = {
  unreachable: 'no se pudo conectar con el servidor',
  timeout: 'el servidor no respondió a tiempo',
  unreadable: 'no se pudo leer la respuesta del servidor',
  busy: 'otra respuesta de esta conversación sigue en curso',
  'too-long': 'el mensaje es demasiado largo',
  'too-many': 'demasiados mensajes. Espere un momento y vuelva a enviarlo',
  'signed-out': 'vuelva a iniciar sesión',
  forbidden: 'no tiene permiso para enviar mensajes aquí',
  server: 'el servidor tuvo un problema',
  refused: 'el servidor lo rechazó',
};

const toolStatuses: Record<ToolCallStatus, string> = { running: 'en curso', succeeded: 'hecho', failed: 'fallida' };
const toolCount = plural('es', {
  one: () => '1 llamada a herramienta',
  // Spanish "many" (1 000 000 and up) takes "de": "1 millón de llamadas".
  many: (count) => `${new Intl.NumberFormat('es').format(count)} de llamadas a herramientas`,
  other: (count) => `${new Intl.NumberFormat('es').format(count)} llamadas a herramientas`,
});
const expiryDate = dateFormatter('es');

/** Spanish labels: `<KestrelLabelsProvider labels={es}>`. */
export const es: KestrelLabels = {
  statusStarted: 'Ejecución iniciada',
  statusWaiting: 'Esperando tu respuesta',
  statusFinished: 'Ejecución terminada',
  statusFinishedWithNote: (note) => `Ejecución terminada. ${note}`,
  statusFailed: 'La ejecución falló',
  statusFailedWithMessage: (message) => `La ejecución falló: ${message}`,
  statusPayloadInvalid: 'El resultado estructurado no coincide con el esquema de esta aplicación.',
  statusCancelled: 'Ejecución cancelada',
  statusDetached: 'Se dejó de seguir la ejecución',
  statusConnectionLost: 'Conexión perdida: no se recibió ningún resultado',
  statusStreamEnded: 'El flujo se cortó antes de que terminara la ejecución',
  statusProtocolError: 'El servidor envió un evento no válido',
  statusProtocolErrorAfterOutcome: 'El servidor envió un evento no válido después del resultado',
  statusRequestFailed: 'La solicitud falló: no se recibió ningún resultado',
  statusTimedOut: 'Sin respuesta a tiempo: no se recibió ningún resultado',
  assistantRegion: 'Respuesta del asistente',
  cancelledRegion: 'Respuesta del asistente, detenida antes del final',
  failedRegion: 'Respuesta del asistente, de una ejecución que falló',
  draftRegion: 'Respuesta del asistente, en curso',
  draftInProgress: 'Escribiendo… (en curso, no definitivo)',
  draftInterrupted: 'Texto incompleto, no es un resultado',
  answerContinues: '… (la respuesta continúa en la página)',
  activity: 'Actividad',
  activityReasoning: 'Razonamiento',
  activityTools: 'Llamadas a herramientas',
  activityToolCount: toolCount,
  activityProgress: 'Progreso',
  activityLastStep: 'Último paso',
  activityLogs: 'Registro',
  toolStatus: (status) => toolStatuses[status],
  toolSchemaFailed: (value) =>
    `${value === 'input' ? 'La entrada' : 'La salida'} de esta llamada no coincide con el esquema de esta aplicación, así que se muestra tal como llegó:`,
  finishNotice: (kind, reason) =>
    kind === 'other' ? `El último turno del agente terminó con el motivo «${reason}».` : finishNotices[kind],
  payloadRegion: 'Contenido de la aplicación',
  payloadUnrendered: 'Esta ejecución devolvió un resultado estructurado que esta vista no muestra.',
  payloadInvalid: 'El resultado estructurado no coincide con el esquema de esta aplicación:',
  errorTitle: errorTitles({
    transport: 'Conexión perdida',
    truncated: 'El flujo terminó antes de que acabara la ejecución',
    protocol: 'El servidor envió algo inesperado',
    http: 'La solicitud falló',
    timeout: 'El servidor no respondió a tiempo',
  }),
  errorUnreachable: 'No se pudo contactar con el servidor',
  errorProtocolWhere: protocolWhere({ event: 'evento', field: 'campo' }),
  errorTruncated: (lastSeq) => `No se recibió ningún resultado; el último evento fue seq ${lastSeq}.`,
  errorTimeout: (timeoutMs) => `Se abandonó tras ${Math.round(timeoutMs / 1000)} s.`,
  errorAction: (mode) => (mode === 'resume' ? 'Reconectar' : 'Reintentar'),
  errorAfterOutcome: 'Llegó después de recibir el resultado de la ejecución.',
  receivedOutcome: (status) => `Recibido antes del error: ${receivedStatuses[status]}`,
  receivedInteraction: (prompt) => `Preguntó: ${prompt}`,
  failedTitle: 'La ejecución falló',
  failedCode: (code) => `Código de error: ${code}`,
  retry: 'Intentar de nuevo',
  cancelledTitle: (by) =>
    by === 'user'
      ? 'Cancelaste la ejecución'
      : by === 'system'
        ? 'El sistema canceló la ejecución'
        : 'La ejecución fue cancelada',
  cancelledReason: (reason) => `Motivo: ${reason}`,
  connecting: 'Conectando…',
  reconnecting: (attempt, reason) => `Conexión interrumpida (${reason}). Reconectando, intento ${attempt}…`,
  detached: 'Ya no se sigue esta ejecución. Continúa en el servidor.',
  followAgain: 'Seguir de nuevo',
  cancel: 'Detener la ejecución',
  cancelFailed: 'No se pudo detener la ejecución y sigue en curso. Inténtelo de nuevo.',
  copy: 'Copiar la respuesta',
  copied: 'Copiado',
  copyFailed: 'No se pudo copiar',
  approve: 'Aprobar',
  reject: 'Rechazar',
  comment: 'Comentario (opcional)',
  action: 'Acción',
  submit: 'Enviar respuesta',
  submitting: 'Enviando…',
  required: 'obligatorio',
  chooseOption: 'Elegir…',
  expiresIn: (remaining) => `Caduca en ${remaining}`,
  formatRemaining: remainingFormatter('es'),
  expiresOn: (deadline) => `Caduca el ${expiryDate(deadline)}`,
  expired: 'Esta solicitud ha caducado y ya no se puede responder.',
  fixErrors: 'Revisa las respuestas marcadas.',
  answerIssue: answerIssueIn('es', {
    required: (field) => `${field} es obligatorio`,
    'not-text': (field) => `${field} debe ser un texto`,
    'not-number': (field) => `${field} debe ser un número`,
    'not-boolean': (field) => `${field} debe ser sí o no`,
    'not-an-option': (field, options) => `${field} debe ser uno de estos valores: ${options}`,
    'choose-one': () => 'Elija una opción',
    'choose-exactly-one': () => 'Elija exactamente una opción',
    'answer-required': () => 'Se requiere una respuesta',
  }),
  rejected: (message) => `Tu respuesta no fue aceptada: ${message}`,
  unsent: (message) => `Tu respuesta no llegó: ${message}. Se conserva aquí: envíala de nuevo.`,
  unsupported: (kind) => `Esta solicitud («${kind}») no se puede responder aquí.`,
  answerNotTaken: (reason) =>
    reason === 'answered-elsewhere'
      ? 'No enviada: esta pregunta ya se respondió en otra pestaña o en otro dispositivo.'
      : 'No enviada: esta pregunta ya no está abierta.',
  sessionThread: 'Conversación',
  sessionEmpty: 'Aún no hay mensajes. Pregunte algo para empezar.',
  sessionYou: 'Usted',
  sessionYourAnswer: 'Su respuesta',
  sessionAnswerApproval: (approved) => (approved ? 'Aprobado' : 'Rechazado'),
  sessionAnswerYesNo: (value) => (value ? 'Sí' : 'No'),
  sessionAnswerNotSent: 'Su respuesta (no enviada)',
  sessionQueued: 'En cola: se envía cuando termine la ejecución actual',
  sessionQueuedAnnouncement: 'Mensaje en cola. Se envía cuando termine la ejecución actual.',
  sessionWithdraw: 'Retirar',
  sessionSending: 'Enviando…',
  sessionFailedToSend: (reason, httpStatus) => `No enviado: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionSendAgain: 'Enviar de nuevo',
  sessionMessage: 'Mensaje',
  sessionComposerHint: 'Intro envía, Mayús+Intro añade una línea.',
  sessionSend: 'Enviar',
  sessionStop: 'Detener',
  sessionBusy: 'Hay una ejecución en curso. Espere a que termine.',
  sessionWaitingHint: 'Una pregunta más arriba espera su respuesta. Un mensaje enviado aquí no la responde.',
  sessionWaitingBlocked: 'Responda primero la pregunta de arriba. Podrá enviar mensajes cuando termine esa ejecución.',
  sessionLoadOlder: 'Cargar mensajes anteriores',
  sessionLoadingOlder: 'Cargando mensajes anteriores…',
  sessionHistoryUnavailable: 'Los mensajes anteriores no están disponibles en este servidor.',
  sessionNotFound: 'No se encontró esta conversación: puede que haya caducado. Su próximo mensaje empieza una nueva.',
  sessionHistoryError: (reason, httpStatus) =>
    `No se pudieron cargar los mensajes anteriores: ${failureWords[reason]}${httpSuffix(reason, httpStatus)}.`,
  sessionHistoryStart: 'Inicio de la conversación',
  sessionJumpToLatest: 'Ir a lo más reciente',
};
