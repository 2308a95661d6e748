import type { Invoice } from '@kestrel/testing';

/** What an app renders for its invoice payload: the kit only gives it a place, it never prints the JSON. */
export function InvoiceTable({ invoice }: { invoice: Invoice }) {
  const money = (amount: number) => `${invoice.currency} ${amount.toFixed(2)}`;
  return (
    <table>
      <caption>
        Invoice {invoice.invoiceNumber} from {invoice.vendor}
      </caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Qty</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {invoice.lines.map((line) => (
          <tr key={line.description}>
            <td>{line.description}</td>
            <td>{line.quantity}</td>
            <td>{money(line.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2}>
            Total
          </th>
          <td>{money(invoice.total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

export const renderInvoice = (invoice: Invoice) => <InvoiceTable invoice={invoice} />;

/**
 * The invoice with its article numbers and dates: a table wider than a phone, for the small-screen story. The app
 * wraps it in its own scroll region, focusable and labelled, so a keyboard can scroll it.
 */
export function WideInvoice({ invoice }: { invoice: Invoice }) {
  return (
    <div
      role="region"
      aria-label={`Invoice ${invoice.invoiceNumber}, scrollable`}
      tabIndex={0}
      style={{ overflowX: 'auto' }}
      data-testid="wide-invoice"
    >
      <table>
        <caption>Invoice {invoice.invoiceNumber}, all columns</caption>
        <thead>
          <tr>
            {['Article number', 'Item', 'Qty', 'Unit', 'Booked on', 'Amount'].map((title) => (
              <th key={title} scope="col" style={{ whiteSpace: 'nowrap' }}>
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, index) => (
            <tr key={line.description} style={{ whiteSpace: 'nowrap' }}>
              <td>{`NWT-${invoice.invoiceNumber}-${String(index + 1).padStart(4, '0')}-EU`}</td>
              <td>{line.description}</td>
              <td>{line.quantity}</td>
              <td>{`${invoice.currency} ${(line.amount / line.quantity).toFixed(2)}`}</td>
              <td>2026-11-30</td>
              <td>{`${invoice.currency} ${line.amount.toFixed(2)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
