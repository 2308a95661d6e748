import { uiMessageChunkSchema } from 'ai';

// Guards the AI SDK 7 suite against a silent fall-back to AI SDK 6: only 7 knows the `reset-step` chunk. If the
// `ai` -> `ai-v7` alias ever stops applying, every test file fails here instead of testing 6 twice.
const check = await uiMessageChunkSchema().validate?.({ type: 'reset-step' });
if (check?.success !== true)
  throw new Error('The AI SDK 7 suite did not load ai@7: check the ai-v7 alias in vitest.ai-sdk-v7.config.ts');
