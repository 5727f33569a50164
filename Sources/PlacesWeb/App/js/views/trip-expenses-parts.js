// The lists of the Expenses tab, built from the API's answers: expenses and payments,
// balances, the settle-up suggestions, pairwise debts, travellers and the rate table.
// Everything people wrote (titles, names, categories) goes in as text through h().
// testids: expense-item (data-id, data-kind), expense-edit, expense-delete,
//   expense-filter-<all|expense|transfer>, balance-row (data-id), balance-amount,
//   settle-transfer (data-from, data-to), settle-record, debt-row, traveller-row (data-id),
//   traveller-add (form), traveller-name, traveller-rename, traveller-remove,
//   settlement-currency (form), rates-form, rate-row, rate-currency, rate-value,
//   rate-add-row, rate-remove, rates-save.

import { post, patch, put, del, seg } from '../api.js';
import { h, field, form, action, empty, formatDate, formatTime } from '../dom.js';
import { confirmButton, fieldError, toggle, trackDirty } from '../ui.js';
import { money, moneyOf, isCurrency, parseRate } from './trip-expenses-money.js';

const MODE_WORDS = { equal: 'equally', shares: 'by shares', exact: 'by exact amounts', percent: 'by percentages' };

function names(list) {
  if (list.length <= 2) return list.join(' and ');
  return list.slice(0, -1).join(', ') + ' and ' + list[list.length - 1];
}

function shareWeight(share, split, _currency) {
  if (split.mode === 'shares') return `${share.shares} share${share.shares === 1 ? '' : 's'}`;
  if (split.mode === 'percent') return `${share.percent} %`;
  if (split.mode === 'exact') return 'exact';
  return '';
}

/** One expense or payment. `ctl`: { canEdit, onEdit(expense), onDelete(expense), itemTitle(id) }. */
export function expenseItem(expense, ctl) {
  const transfer = expense.kind === 'transfer';
  const currency = expense.amount.currency;
  const payers = expense.paidBy.map((p) => p.name);
  const among = expense.split.among;
  const details = h(
    'details',
    { class: 'shares' },
    h('summary', {}, transfer ? 'Details' : `Shares (${among.length})`),
    h(
      'ul',
      { class: 'plain' },
      expense.paidBy.length > 1 ? expense.paidBy.map((p) => h('li', {}, h('span', { class: 'person' }, p.name), ` paid ${money(p.amountMinor, currency)}`)) : null,
      among.map((s) =>
        h(
          'li',
          {},
          h('span', { class: 'person' }, s.name),
          ` ${transfer ? 'received' : 'owes'} ${money(s.shareMinor, currency)}`,
          shareWeight(s, expense.split, currency) ? h('span', { class: 'muted' }, ` (${shareWeight(s, expense.split, currency)})`) : null,
        ),
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      'Entered by ',
      h('span', { class: 'person', title: expense.createdBy }, expense.createdByName || expense.createdBy.split('-')[0]),
      ` on ${formatTime(expense.createdAt)}`,
      expense.updatedAt ? `, edited ${formatTime(expense.updatedAt)}` : '',
    ),
  );
  return h(
    'li',
    { class: ['expense-item', transfer ? 'transfer' : ''], dataset: { testid: 'expense-item', id: expense.id, kind: expense.kind } },
    h(
      'div',
      { class: 'grow' },
      h(
        'div',
        { class: 'row' },
        transfer ? h('span', { class: 'chip payment', 'aria-hidden': 'true' }, '⇄') : null,
        h('strong', { class: 'expense-title' }, transfer ? `${payers[0]} paid ${among[0] ? among[0].name : 'someone'}` : expense.title),
        expense.category ? h('span', { class: 'chip' }, expense.category) : null,
        expense.date ? h('span', { class: 'muted' }, formatDate(expense.date)) : null,
      ),
      transfer
        ? h('div', { class: 'muted' }, 'Payment')
        : h('div', { class: 'muted' }, `${names(payers)} paid · split ${MODE_WORDS[expense.split.mode] || expense.split.mode} among ${among.length}`),
      expense.itemId && ctl.itemTitle ? h('div', { class: 'muted' }, 'For ', ctl.itemTitle(expense.itemId)) : null,
      details,
    ),
    h(
      'div',
      { class: 'expense-amount' },
      h('strong', { dataset: { testid: 'expense-amount-shown' } }, money(expense.amount.amountMinor, currency)),
      expense.rate ? h('div', { class: 'muted' }, `= ${moneyOf(expense.settlementAmount)} at ${expense.rate}`) : null,
    ),
    ctl.canEdit
      ? h(
          'div',
          { class: 'row actions' },
          h('button', { type: 'button', dataset: { action: 'edit', testid: 'expense-edit' }, 'aria-label': `Edit ${expense.title}`, onclick: () => ctl.onEdit(expense) }, 'Edit'),
          confirmButton('Delete', () => ctl.onDelete(expense), { dataset: { action: 'delete', testid: 'expense-delete' }, 'aria-label': `Delete ${expense.title}` }),
        )
      : null,
  );
}

/** The expenses list with its All / Expenses / Payments filter. */
export function expenseList(expenses, filter, ctl) {
  const shown = filter === 'all' ? expenses : expenses.filter((e) => e.kind === filter);
  return [
    h(
      'div',
      { class: 'toolbar', role: 'group', 'aria-label': 'Show' },
      [
        ['all', 'All'],
        ['expense', 'Expenses'],
        ['transfer', 'Payments'],
      ].map(([value, label]) => toggle(label, value, filter === value, ctl.onFilter, { dataset: { testid: 'expense-filter-' + value, action: 'filter-' + value } })),
    ),
    shown.length
      ? h(
          'ul',
          { class: 'list expenses', dataset: { testid: 'expense-list' } },
          shown.map((e) => expenseItem(e, ctl)),
        )
      : empty(expenses.length ? 'Nothing of this kind.' : 'No expenses yet. Add the first one: who paid, how much, and who shares it.'),
  ];
}

/** Balances: paid, share and balance per traveller, with spending per category. */
export function balanceList(report, me) {
  if (!report) return empty('No balances.');
  const currency = report.currency;
  if (!currency) return empty('No expenses yet: balances appear with the first one.');
  return [
    h(
      'ul',
      { class: 'list balances', dataset: { testid: 'balance-list' } },
      report.balances.map((b) => {
        const cls = b.balanceMinor > 0 ? 'owed' : b.balanceMinor < 0 ? 'owes' : 'even';
        const words = b.balanceMinor > 0 ? 'is owed' : b.balanceMinor < 0 ? 'owes' : 'is settled';
        const cats = Object.entries(b.byCategory || {});
        return h(
          'li',
          { class: 'balance-row', dataset: { testid: 'balance-row', id: b.traveller } },
          h(
            'div',
            { class: 'grow' },
            h('span', { class: 'person' }, b.name),
            b.traveller === me ? h('span', { class: 'muted' }, ' (you)') : null,
            h('div', { class: 'muted' }, `paid ${money(b.paidMinor, currency)} · share ${money(b.shareMinor, currency)}`),
            cats.length
              ? h(
                  'details',
                  {},
                  h('summary', {}, 'By category'),
                  h(
                    'ul',
                    { class: 'plain' },
                    cats.map(([cat, minor]) => h('li', {}, `${cat}: ${money(minor, currency)}`)),
                  ),
                )
              : null,
          ),
          h(
            'div',
            { class: ['balance', cls], dataset: { testid: 'balance-amount', minor: b.balanceMinor } },
            h('span', { class: 'visually-hidden' }, words + ' '),
            (b.balanceMinor > 0 ? '+' : b.balanceMinor < 0 ? '−' : '') + money(Math.abs(b.balanceMinor), currency),
          ),
        );
      }),
    ),
    report.unconverted && report.unconverted.length
      ? h(
          'p',
          { class: 'field-error' },
          `${report.unconverted.length} expense${report.unconverted.length === 1 ? ' is' : 's are'} in another settlement currency and left out: edit and save ${report.unconverted.length === 1 ? 'it' : 'them'} to count them.`,
        )
      : null,
  ];
}

/** Settle-up: the fewest payments, each with a "Record payment" button for editors. */
export function settlementList(plan, ctl) {
  if (!plan || !plan.currency) return empty('Nothing to settle.');
  if (!plan.transfers.length) return h('p', { class: 'settled', dataset: { testid: 'settle-none' } }, 'Everyone is settled up.');
  return [
    h(
      'ol',
      { class: 'list settle', dataset: { testid: 'settle-list' } },
      plan.transfers.map((t) =>
        h(
          'li',
          {
            dataset: { testid: 'settle-transfer', id: `${t.from}>${t.to}`, from: t.from, to: t.to, minor: t.amountMinor },
          },
          h('div', { class: 'grow' }, h('span', { class: 'person' }, t.fromName), ' pays ', h('span', { class: 'person' }, t.toName)),
          h('strong', {}, money(t.amountMinor, plan.currency)),
          ctl.canEdit
            ? action('Record payment', () => ctl.onRecord(t, plan.currency), {
                dataset: { action: 'record', testid: 'settle-record' },
                'aria-label': `Record that ${t.fromName} paid ${t.toName} ${money(t.amountMinor, plan.currency)}`,
              })
            : null,
        ),
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      plan.optimal
        ? `${plan.transfers.length} payment${plan.transfers.length === 1 ? '' : 's'}: the fewest possible.`
        : 'A short list of payments (not proven the fewest for so many people).',
    ),
  ];
}

/** Who owes whom pair by pair, for checking by hand. */
export function debtList(list) {
  if (!list || !list.currency || !list.debts.length) return empty('Nobody owes anybody.');
  return h(
    'ul',
    { class: 'plain debts' },
    list.debts.map((d) =>
      h(
        'li',
        { dataset: { testid: 'debt-row', id: `${d.from}>${d.to}` } },
        h('span', { class: 'person' }, d.fromName),
        ' owes ',
        h('span', { class: 'person' }, d.toName),
        ' ',
        money(d.amountMinor, list.currency),
      ),
    ),
  );
}

/** Travellers with add, rename and remove for named ones. `ctl`: { trip, canEdit, me, onChange, renaming, setRenaming }. */
export function travellerList(list, ctl) {
  const base = `/v1/itineraries/${seg(ctl.trip.id)}/travellers`;
  return h(
    'ul',
    { class: 'list travellers', dataset: { testid: 'traveller-list' } },
    list.travellers.map((t) => {
      const badges = [t.member ? 'member' : 'named traveller', t.left ? 'left' : null, t.removed ? 'removed' : null].filter(Boolean);
      const renaming = ctl.renaming === t.id;
      return h(
        'li',
        { dataset: { testid: 'traveller-row', id: t.id } },
        renaming
          ? form(
              { class: 'row grow', dataset: { testid: 'traveller-rename-form' } },
              [
                field(`New name for ${t.name}`, { name: 'name', value: t.name, maxlength: 100, required: true }),
                h(
                  'div',
                  { class: 'form-actions' },
                  h('button', { type: 'submit', class: 'primary' }, 'Save'),
                  h('button', { type: 'button', onclick: () => ctl.setRenaming(null) }, 'Cancel'),
                ),
              ],
              async (values) => {
                if (!values.name.trim()) throw fieldError('name', 'A name is needed.');
                await patch(`${base}/${seg(t.id)}`, { name: values.name.trim() });
                ctl.setRenaming(null);
                ctl.onChange();
              },
            )
          : h(
              'div',
              { class: 'grow' },
              h('span', { class: 'person', title: t.id }, t.name),
              t.id === ctl.me ? h('span', { class: 'muted' }, ' (you)') : null,
              h('div', { class: 'muted' }, badges.join(' · '), ` · in ${t.expenseCount} expense${t.expenseCount === 1 ? '' : 's'}`),
            ),
        ctl.canEdit && !t.member && !t.removed && !renaming
          ? h(
              'div',
              { class: 'row actions' },
              h(
                'button',
                { type: 'button', dataset: { action: 'rename', testid: 'traveller-rename' }, 'aria-label': `Rename ${t.name}`, onclick: () => ctl.setRenaming(t.id) },
                'Rename',
              ),
              confirmButton(
                'Remove',
                async () => {
                  await del(`${base}/${seg(t.id)}`);
                  ctl.onChange();
                },
                { dataset: { action: 'remove', testid: 'traveller-remove' }, 'aria-label': `Remove ${t.name}` },
              ),
            )
          : null,
      );
    }),
  );
}

export function travellerAddForm(ctl) {
  const el = form(
    { class: 'row add-traveller', dataset: { testid: 'traveller-add' }, 'aria-label': 'Add a traveller' },
    [
      field('Someone without the app (a child, a friend)', { name: 'name', maxlength: 100, required: true, dataset: { testid: 'traveller-name' }, placeholder: 'Leo' }),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary' }, 'Add traveller')),
    ],
    async (values, formEl) => {
      if (!values.name.trim()) throw fieldError('name', "Enter the traveller's name.");
      await post(`/v1/itineraries/${seg(ctl.trip.id)}/travellers`, { name: values.name.trim() });
      formEl.reset();
      delete formEl.dataset.dirty;
      ctl.onChange();
    },
  );
  return trackDirty(el);
}

/** The settlement currency (PATCH the itinerary) and the rate table (PUT …/rates). */
export function ratesPanel(table, ctl) {
  const currency = table ? table.currency : null;
  const parts = [h('h3', {}, 'Settlement currency')];
  parts.push(h('p', {}, currency ? `Balances and settle-up are in ${currency}.` : 'Not set yet: the first expense sets it to its own currency.'));
  if (ctl.canEdit) {
    parts.push(
      trackDirty(
        form(
          { class: 'row', dataset: { testid: 'settlement-currency' }, 'aria-label': 'Settlement currency' },
          [
            field('Currency for balances', {
              name: 'settlementCurrency',
              value: currency || '',
              maxlength: 3,
              size: 4,
              list: 'currencies-h3b',
              autocapitalize: 'characters',
              class: 'currency-input',
            }),
            h('div', { class: 'form-actions' }, h('button', { type: 'submit' }, 'Change')),
          ],
          async (values) => {
            const code = values.settlementCurrency.trim().toUpperCase();
            if (code && !isCurrency(code)) throw fieldError('settlementCurrency', `'${code}' is not an ISO 4217 currency code with a minor unit.`);
            await patch(`/v1/itineraries/${seg(ctl.trip.id)}`, { settlementCurrency: code || null });
            ctl.onChange();
          },
        ),
      ),
    );
  }
  parts.push(h('h3', {}, 'Exchange rates'));
  const entries = Object.entries((table && table.rates) || {}).sort(([a], [b]) => a.localeCompare(b));
  if (!ctl.canEdit) {
    parts.push(
      entries.length
        ? h(
            'ul',
            { class: 'plain' },
            entries.map(([code, rate]) => h('li', { dataset: { testid: 'rate-row', id: code } }, `1 ${code} = ${rate} ${currency}`)),
          )
        : empty('No rates: expenses in other currencies give their own.'),
    );
    return parts;
  }
  if (!currency) {
    parts.push(empty('Set the settlement currency first: rates convert to it.'));
    return parts;
  }
  const rows = h('div', { class: 'rate-rows', dataset: { field: 'rates' } });
  const addRow = (code = '', rate = '') => {
    const row = h(
      'div',
      { class: 'row rate-row', dataset: { testid: 'rate-row', id: code || 'new' } },
      h('span', {}, '1'),
      h('input', { value: code, maxlength: 3, size: 4, list: 'currencies-h3b', class: 'currency-input', 'aria-label': 'Currency', dataset: { testid: 'rate-currency' } }),
      h('span', {}, '='),
      h('input', { value: rate, inputmode: 'decimal', class: 'rate-input', 'aria-label': `Rate to ${currency}`, dataset: { testid: 'rate-value' } }),
      h('span', {}, currency),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          dataset: { testid: 'rate-remove' },
          'aria-label': `Remove the rate${code ? ' of ' + code : ''}`,
          onclick: () => {
            row.remove();
            el.dataset.dirty = 'true';
          },
        },
        'Remove',
      ),
    );
    rows.append(row);
    return row;
  };
  const el = trackDirty(
    form(
      { class: 'rates-form', dataset: { testid: 'rates-form' }, 'aria-label': 'Exchange rates' },
      [
        h('p', { class: 'muted' }, `The rate a new expense in a foreign currency takes when it gives none. Expenses already entered keep theirs.`),
        rows,
        h(
          'div',
          { class: 'form-actions' },
          h(
            'button',
            {
              type: 'button',
              dataset: { testid: 'rate-add-row' },
              onclick: () => {
                const row = addRow();
                row.querySelector('input').focus();
              },
            },
            'Add a currency',
          ),
          h('button', { type: 'submit', class: 'primary', dataset: { testid: 'rates-save' } }, 'Save rates'),
        ),
      ],
      async () => {
        const rates = {};
        for (const row of rows.querySelectorAll('.rate-row')) {
          const [codeInput, rateInput] = row.querySelectorAll('input');
          const code = codeInput.value.trim().toUpperCase();
          if (!code && !rateInput.value.trim()) continue;
          if (!isCurrency(code)) throw fieldError('rates', `'${code}' is not an ISO 4217 currency code with a minor unit.`);
          if (code === currency) throw fieldError('rates', `${code} is the settlement currency itself: it needs no rate.`);
          if (code in rates) throw fieldError('rates', `${code} is listed twice.`);
          rates[code] = parseRate(rateInput.value, 'rates');
        }
        await put(`/v1/itineraries/${seg(ctl.trip.id)}/rates`, { rates });
        delete el.dataset.dirty;
        ctl.onChange();
      },
    ),
  );
  for (const [code, rate] of entries) addRow(code, rate);
  if (!entries.length) addRow();
  parts.push(el);
  return parts;
}
