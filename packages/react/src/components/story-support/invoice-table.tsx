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
