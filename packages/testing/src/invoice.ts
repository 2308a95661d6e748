import { z } from 'zod';

/** The structured output the invoice-extraction scenarios request, as an app would declare it. */
export const invoiceSchema = z.object({
  invoiceNumber: z.string(),
  vendor: z.string(),
  currency: z.string().length(3),
  total: z.number(),
  lines: z.array(z.object({ description: z.string(), quantity: z.number(), amount: z.number() })),
});

/** The payload type `invoiceSchema` infers: what `state.payload.value` is in the invoice scenarios. */
export type Invoice = z.infer<typeof invoiceSchema>;

/** The valid invoice the COMPLETED invoice scenarios return as `finalizedPayload`; compare rendered payloads against it. */
export const sampleInvoice: Invoice = {
  invoiceNumber: 'INV-2041',
  vendor: 'Northwind Traders',
  currency: 'EUR',
  total: 1260.5,
  lines: [
    { description: 'Espresso beans, 5 kg', quantity: 4, amount: 860.5 },
    { description: 'Grinder service', quantity: 1, amount: 400 },
  ],
};

/** The JSON schema a request sends as `responseFormat` for the invoice. */
export const invoiceResponseFormat = {
  type: 'json_schema' as const,
  name: 'invoice',
  schema: z.toJSONSchema(invoiceSchema) as Record<string, unknown>,
};
