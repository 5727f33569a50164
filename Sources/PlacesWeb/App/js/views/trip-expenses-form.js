// The expense form of the Expenses tab: add or edit an expense (payer or payers, amount and
// currency, split equally / by shares / exact amounts / percentages, rate, date, category,
// the trip item it is for), or record a payment between two travellers (kind `transfer`).
// testids: expense-add (the form, also when editing: data-mode="edit"), expense-title,
//   expense-amount, expense-currency, expense-rate, expense-date, expense-category,
//   expense-item, expense-payer, expense-several-payers, expense-payer-amount (data-id),
//   expense-split-mode-<equal|shares|exact|percent>, expense-split-row (data-id),
//   expense-split-include, expense-split-weight, expense-split-hint, expense-submit,
//   expense-cancel; payment-form, payment-from, payment-to, payment-amount,
//   payment-currency, payment-submit.

import { post, patch, seg } from '../api.js';
import { h, field, form } from '../dom.js';
import { fieldError, trackDirty } from '../ui.js';
import { CURRENCIES, formatMinor, isCurrency, money, parseAmount, parsePercent, parseRate, parseShares, today } from './trip-expenses-money.js';

const MODES = [
  ['equal', 'Equally'],
  ['shares', 'By shares'],
  ['exact', 'Exact amounts'],
  ['percent', 'Percentages'],
];
const CATEGORIES = ['food', 'lodging', 'transport', 'activities', 'shopping', 'groceries', 'fees', 'other'];
let serial = 0;

/** The problem's `field` as the name of the control that caused it. */
function fieldName(field) {
  if (!field) return field;
  if (field === 'amount.currency') return 'currency';
  if (field.startsWith('paidBy')) return 'paidBy';
  if (field.startsWith('split')) return 'split';
  return field;
}

function mapErrors(run, rename = fieldName) {
  return async (values, el) => {
    try {
      return await run(values, el);
    } catch (error) {
      if (error && error.field) error.field = rename(error.field);
      throw error;
    }
  };
}

/** A payment's problems: the payer is `from`, the one paid `to`. */
function paymentField(field) {
  const name = fieldName(field);
  return name === 'paidBy' ? 'from' : name === 'split' ? 'to' : name;
}

function currencyInput(name, value, testid, label) {
  const listId = 'currencies-h3b';
  if (!document.getElementById(listId))
    document.body.appendChild(
      h(
        'datalist',
        { id: listId },
        CURRENCIES.map((c) => h('option', { value: c })),
      ),
    );
  return field(label, {
    name,
    value: value || '',
    list: listId,
    maxlength: 3,
    size: 4,
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    placeholder: 'EUR',
    class: 'currency-input',
    dataset: { testid },
  });
}

function readCurrency(el, name = 'currency') {
  const code = el.elements[name].value.trim().toUpperCase();
  if (!code) throw fieldError(name, 'Enter the currency, such as EUR.');
  if (!isCurrency(code)) throw fieldError(name, `'${code}' is not an ISO 4217 currency code with a minor unit, such as EUR, USD or JPY.`);
  return code;
}

/** Travellers who may appear in a new expense, plus those the edited one already names. */
function eligible(travellers, expense) {
  const named = new Set();
  if (expense) {
    for (const p of expense.paidBy) named.add(p.traveller);
    for (const s of expense.split.among) named.add(s.traveller);
  }
  return travellers.filter((t) => (!t.left && !t.removed) || named.has(t.id));
}

/**
 * The expense form. `opts`: { trip, travellers, currency (settlement), rates, items, me,
 * expense (to edit) , onDone(expense), onCancel() }.
 */
export function expenseForm(opts) {
  const { trip, expense, onDone, onCancel } = opts;
  const editing = !!expense;
  const people = eligible(opts.travellers, expense);
  const settlement = opts.currency || null;
  const rates = opts.rates || {};
  const id = 'x' + ++serial;
  const startCurrency = editing ? expense.amount.currency : settlement || '';

  const payerSelect = h(
    'select',
    { name: 'payer', id: id + '-payer', dataset: { testid: 'expense-payer' } },
    people.map((t) => h('option', { value: t.id, selected: editing ? expense.paidBy[0].traveller === t.id : t.id === opts.me }, t.name + (t.left || t.removed ? ' (former)' : ''))),
  );
  const several = h('input', { type: 'checkbox', id: id + '-several', dataset: { testid: 'expense-several-payers' }, checked: editing && expense.paidBy.length > 1 });
  const paidRows = h(
    'div',
    { class: 'payer-rows', hidden: !several.checked },
    people.map((t) => {
      const paid = editing ? expense.paidBy.find((p) => p.traveller === t.id) : null;
      return h(
        'div',
        { class: 'split-row', dataset: { id: t.id } },
        h('label', { for: `${id}-paid-${t.id}`, class: 'grow' }, t.name),
        h('input', {
          id: `${id}-paid-${t.id}`,
          inputmode: 'decimal',
          class: 'amount-input',
          dataset: { testid: 'expense-payer-amount', id: t.id },
          value: paid ? formatMinor(paid.amountMinor, expense.amount.currency) : '',
          'aria-label': `What ${t.name} paid`,
        }),
      );
    }),
  );
  several.addEventListener('change', () => {
    paidRows.hidden = !several.checked;
    payerSelect.closest('.field').hidden = several.checked;
  });

  let mode = editing ? expense.split.mode : 'equal';
  const splitRows = people.map((t) => {
    const share = editing ? expense.split.among.find((s) => s.traveller === t.id) : null;
    const include = h('input', { type: 'checkbox', id: `${id}-in-${t.id}`, checked: editing ? !!share : !(t.left || t.removed), dataset: { testid: 'expense-split-include' } });
    let weight = '';
    if (share && share.shares !== undefined) weight = String(share.shares);
    if (share && expense.split.mode === 'exact') weight = formatMinor(share.amountMinor, expense.amount.currency);
    if (share && share.percent !== undefined) weight = String(share.percent);
    const input = h('input', { inputmode: 'decimal', class: 'weight-input', value: weight, 'aria-label': `${t.name}'s share`, dataset: { testid: 'expense-split-weight' } });
    const computed = h('span', { class: 'muted share-preview' });
    return {
      t,
      include,
      input,
      computed,
      row: h(
        'div',
        { class: 'split-row', dataset: { id: t.id, testid: 'expense-split-row' } },
        h('label', { for: include.id, class: 'grow' }, include, ' ', t.name),
        input,
        computed,
      ),
    };
  });
  const hint = h('p', { class: 'muted split-hint', dataset: { testid: 'expense-split-hint' }, 'aria-live': 'polite' });
  const modeButtons = MODES.map(([value, label]) =>
    h(
      'label',
      { class: 'mode-choice' },
      h('input', { type: 'radio', name: 'splitMode', value, checked: value === mode, dataset: { testid: 'expense-split-mode-' + value } }),
      ' ',
      label,
    ),
  );

  const rateField = field('Exchange rate', { name: 'rate', inputmode: 'decimal', value: editing && expense.rate ? expense.rate : '', dataset: { testid: 'expense-rate' } });
  const rateHelp = h('p', { class: 'muted' });
  rateField.append(rateHelp);
  const itemSelect = opts.items && opts.items.length ? field('For the trip item', { name: 'itemId', dataset: { testid: 'expense-item' } }, 'select') : null;
  if (itemSelect) {
    const select = itemSelect.querySelector('select');
    select.append(
      h('option', { value: '' }, '— none —'),
      ...opts.items.filter((it) => !it.legacy).map((it) => h('option', { value: it.id, selected: editing && expense.itemId === it.id }, `${it.title} (${it.type})`)),
    );
  }

  const el = form(
    {
      class: 'card expense-form',
      dataset: { testid: 'expense-add', mode: editing ? 'edit' : 'add', id: editing ? expense.id : '' },
      'aria-label': editing ? 'Edit the expense' : 'Add an expense',
    },
    [
      h('h3', {}, editing ? `Edit “${expense.title}”` : 'Add an expense'),
      h(
        'div',
        { class: 'form-grid' },
        field('What for', {
          name: 'title',
          required: true,
          maxlength: 200,
          value: editing ? expense.title : '',
          dataset: { testid: 'expense-title' },
          placeholder: 'Dinner at Ramiro',
        }),
        h(
          'div',
          { class: 'row amount-row' },
          field('Amount', {
            name: 'amount',
            inputmode: 'decimal',
            required: true,
            class: 'amount-input',
            autocomplete: 'off',
            value: editing ? formatMinor(expense.amount.amountMinor, expense.amount.currency) : '',
            dataset: { testid: 'expense-amount' },
            placeholder: '84.50',
          }),
          currencyInput('currency', startCurrency, 'expense-currency', 'Currency'),
        ),
        field('Date', { name: 'date', type: 'date', value: editing ? expense.date || '' : today(), dataset: { testid: 'expense-date' } }),
        field('Category', { name: 'category', maxlength: 50, list: id + '-cats', value: editing ? expense.category || '' : '', dataset: { testid: 'expense-category' } }),
        h(
          'datalist',
          { id: id + '-cats' },
          CATEGORIES.map((c) => h('option', { value: c })),
        ),
        itemSelect,
      ),
      rateField,
      h(
        'fieldset',
        { class: 'payers', dataset: { field: 'paidBy' } },
        h('legend', {}, 'Paid by'),
        h('div', { class: 'field', hidden: several.checked }, h('label', { for: payerSelect.id }, 'Who paid'), payerSelect),
        h('label', { for: several.id, class: 'inline' }, several, ' Several people paid'),
        paidRows,
      ),
      h(
        'fieldset',
        { class: 'split', dataset: { field: 'split' } },
        h('legend', {}, 'Split'),
        h('div', { class: 'row mode-choices', role: 'radiogroup', 'aria-label': 'How to split' }, modeButtons),
        splitRows.map((r) => r.row),
        hint,
      ),
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'submit', class: 'primary', dataset: { testid: 'expense-submit' } }, editing ? 'Save changes' : 'Add expense'),
        onCancel ? h('button', { type: 'button', dataset: { testid: 'expense-cancel' }, onclick: onCancel }, 'Cancel') : null,
      ),
    ],
    mapErrors(async (_values, formEl) => {
      const body = readExpense(formEl);
      const path = `/v1/itineraries/${seg(trip.id)}/expenses`;
      const result = editing ? await patch(`${path}/${seg(expense.id)}`, body) : await post(path, body);
      onDone(result);
    }),
  );

  function readExpense(formEl) {
    const title = formEl.elements.title.value.trim();
    if (!title) throw fieldError('title', 'Say what the expense was for.');
    const currency = readCurrency(formEl);
    const amountMinor = parseAmount(formEl.elements.amount.value, currency);
    const body = { title, kind: 'expense', amount: { amountMinor, currency } };
    if (formEl.elements.date.value) body.date = formEl.elements.date.value;
    const category = formEl.elements.category.value.trim();
    if (category) body.category = category;
    else if (editing) body.category = null;
    if (formEl.elements.itemId) {
      if (formEl.elements.itemId.value) body.itemId = formEl.elements.itemId.value;
      else if (editing) body.itemId = null;
    }
    const rateText = formEl.elements.rate.value.trim();
    if (rateText && settlement && currency !== settlement) body.rate = parseRate(rateText);
    if (several.checked) {
      body.paidBy = [];
      for (const row of paidRows.querySelectorAll('input')) {
        if (!row.value.trim()) continue;
        body.paidBy.push({ traveller: row.dataset.id, amountMinor: parseAmount(row.value, currency, 'paidBy') });
      }
      if (!body.paidBy.length) throw fieldError('paidBy', 'Enter what each payer paid.');
    } else {
      if (!payerSelect.value) throw fieldError('paidBy', 'Choose who paid.');
      body.paidBy = [{ traveller: payerSelect.value }];
    }
    const among = [];
    for (const r of splitRows) {
      if (!r.include.checked) continue;
      const entry = { traveller: r.t.id };
      if (mode === 'shares') entry.shares = parseShares(r.input.value || '1', 'split');
      if (mode === 'exact') entry.amountMinor = parseAmount(r.input.value || '0', currency, 'split', { allowZero: true });
      if (mode === 'percent') entry.percent = parsePercent(r.input.value, 'split').value;
      among.push(entry);
    }
    if (!among.length) throw fieldError('split', 'Choose who shares the expense.');
    body.split = { mode, among };
    return body;
  }

  function updateHint() {
    for (const r of splitRows) {
      r.input.hidden = mode === 'equal' || !r.include.checked;
      r.input.placeholder = mode === 'shares' ? '1' : mode === 'percent' ? '%' : '0.00';
      r.computed.textContent = '';
    }
    const currency = el.elements.currency.value.trim().toUpperCase();
    const foreign = settlement && isCurrency(currency) && currency !== settlement;
    rateField.hidden = !foreign;
    if (foreign) {
      rateHelp.textContent = `1 ${currency} = how many ${settlement}? ` + (rates[currency] ? `Empty: the trip's rate, ${rates[currency]}.` : 'The trip has no rate for it yet.');
      el.elements.rate.placeholder = rates[currency] || '';
    }
    let total = null;
    try {
      total = parseAmount(el.elements.amount.value, currency);
    } catch {
      total = null;
    }
    const chosen = splitRows.filter((r) => r.include.checked);
    if (!chosen.length) {
      hint.textContent = 'Nobody shares it yet: tick who does.';
      return;
    }
    if (mode === 'equal') {
      hint.textContent = total
        ? `${money(Math.floor(total / chosen.length), currency)} each${total % chosen.length ? ' (a few cents more for some)' : ''}.`
        : `Split equally among ${chosen.length}.`;
    } else if (mode === 'shares') {
      let sum = 0;
      for (const r of chosen) sum += Number(r.input.value) > 0 ? Math.floor(Number(r.input.value)) : r.input.value ? NaN : 1;
      hint.textContent = Number.isFinite(sum) ? `${sum} share${sum === 1 ? '' : 's'} in all; an empty box counts as 1.` : 'Shares are whole numbers.';
    } else if (mode === 'exact') {
      let sum = 0;
      try {
        for (const r of chosen) sum += r.input.value ? parseAmount(r.input.value, currency, 'split', { allowZero: true }) : 0;
      } catch {
        hint.textContent = 'Amounts are numbers such as 12.50.';
        return;
      }
      hint.textContent =
        total === null
          ? `Assigned ${formatMinor(sum, isCurrency(currency) ? currency : 'EUR')}.`
          : sum === total
            ? 'All assigned.'
            : `${formatMinor(Math.abs(total - sum), currency)} ${currency} ${sum < total ? 'left to assign' : 'too much'}.`;
    } else {
      let basis = 0;
      try {
        for (const r of chosen) basis += r.input.value ? parsePercent(r.input.value, 'split').basis : 0;
      } catch {
        hint.textContent = 'Percentages have at most two decimals.';
        return;
      }
      hint.textContent = basis === 10000 ? '100 % assigned.' : `${(basis / 100).toFixed(2)} % assigned; they must add up to 100.`;
    }
  }

  el.addEventListener('change', (event) => {
    if (event.target.name === 'splitMode') mode = event.target.value;
    if (event.target.name === 'itemId' && event.target.value && !el.elements.amount.value) {
      const item = opts.items.find((it) => it.id === event.target.value);
      if (item && item.price) {
        el.elements.currency.value = item.price.currency;
        el.elements.amount.value = formatMinor(item.price.amountMinor, item.price.currency);
      }
      if (item && !el.elements.title.value) el.elements.title.value = item.title;
    }
    updateHint();
  });
  el.addEventListener('input', updateHint);
  el.elements.currency.addEventListener('blur', () => {
    el.elements.currency.value = el.elements.currency.value.trim().toUpperCase();
  });
  updateHint();
  return trackDirty(el);
}

/**
 * Recording a payment (`kind` = `transfer`): who paid whom how much. `opts`: { trip,
 * travellers, currency, me, transfer (prefill {from, to, amountMinor}), expense (to edit), onDone, onCancel }.
 */
export function paymentForm(opts) {
  const { trip, expense, onDone, onCancel } = opts;
  const editing = !!expense;
  const people = eligible(opts.travellers, expense);
  const pre =
    opts.transfer ||
    (editing ? { from: expense.paidBy[0].traveller, to: expense.split.among[0].traveller, amountMinor: expense.amount.amountMinor, currency: expense.amount.currency } : {});
  const currency = pre.currency || opts.currency || '';
  const choose = (name, label, selected, testid) => {
    const f = field(label, { name, dataset: { testid } }, 'select');
    f.querySelector('select').append(...people.map((t) => h('option', { value: t.id, selected: t.id === selected }, t.name)));
    return f;
  };
  const el = form(
    { class: 'card payment-form', dataset: { testid: 'payment-form', id: editing ? expense.id : '' }, 'aria-label': 'Record a payment' },
    [
      h('h3', {}, editing ? 'Edit the payment' : 'Record a payment'),
      h(
        'div',
        { class: 'form-grid' },
        choose('from', 'Who paid', pre.from || opts.me, 'payment-from'),
        choose('to', 'Who was paid', pre.to || (people.find((t) => t.id !== (pre.from || opts.me)) || {}).id, 'payment-to'),
        h(
          'div',
          { class: 'row amount-row' },
          field('Amount', {
            name: 'amount',
            inputmode: 'decimal',
            class: 'amount-input',
            value: pre.amountMinor ? formatMinor(pre.amountMinor, currency) : '',
            dataset: { testid: 'payment-amount' },
          }),
          currencyInput('currency', currency, 'payment-currency', 'Currency'),
        ),
        field('Date', { name: 'date', type: 'date', value: editing ? expense.date || '' : today() }),
      ),
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'submit', class: 'primary', dataset: { testid: 'payment-submit' } }, editing ? 'Save payment' : 'Record payment'),
        onCancel ? h('button', { type: 'button', onclick: onCancel }, 'Cancel') : null,
      ),
    ],
    mapErrors(async (values, formEl) => {
      const code = readCurrency(formEl);
      const amountMinor = parseAmount(formEl.elements.amount.value, code);
      if (values.from === values.to) throw fieldError('to', 'Someone pays another traveller, not themselves.');
      const name = (tid) => (people.find((t) => t.id === tid) || {}).name || 'someone';
      const body = {
        kind: 'transfer',
        title: editing ? expense.title : `${name(values.from)} paid ${name(values.to)}`,
        amount: { amountMinor, currency: code },
        paidBy: [{ traveller: values.from }],
        split: { mode: 'exact', among: [{ traveller: values.to, amountMinor }] },
      };
      if (values.date) body.date = values.date;
      const path = `/v1/itineraries/${seg(trip.id)}/expenses`;
      onDone(editing ? await patch(`${path}/${seg(expense.id)}`, body) : await post(path, body));
    }, paymentField),
  );
  return trackDirty(el);
}
