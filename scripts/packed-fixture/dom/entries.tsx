'use client';
// Every React entry, in a browser project.
import { KestrelProvider, RunView, useKestrelClient, useRun } from '@kestrel/react';
import { RunInspector } from '@kestrel/react/inspector';
import { MarkdownText, renderMarkdown } from '@kestrel/react/markdown';
import { kestrelKeys, runResultQueryOptions, useSyncRunToQueryCache } from '@kestrel/react/query';
import { useQuery } from '@tanstack/react-query';

export function Entries({ runId }: { runId: string }) {
  const run = useRun({ baseUrl: '/api/kestrel', resumeRunId: runId });
  useSyncRunToQueryCache(run);
  const result = useQuery(runResultQueryOptions(useKestrelClient(), runId));
  return (
    <KestrelProvider baseUrl="/api/kestrel" clientOptions={{ headers: new Headers({ authorization: 'Bearer t' }) }}>
      <RunView run={run} renderText={renderMarkdown} />
      <RunInspector run={run} />
      <MarkdownText>{result.data?.output.status ?? kestrelKeys.result(runId).join('/')}</MarkdownText>
    </KestrelProvider>
  );
}

// The AI SDK bridge, whose `ai` peer needs the DOM lib in its own declarations.
export { createKestrelDataPartSchemas, runCompletedToUIMessage } from '@kestrel/ai-sdk';
