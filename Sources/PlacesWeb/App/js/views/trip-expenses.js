// The Expenses tab of a trip: who paid what and who shares it, balances, the fewest payments
// that settle up, pairwise debts, travellers and exchange rates, and CSV exports. Called by
// trip.js as renderTab(container, trip, ctx) → { refresh(event), cleanup() }; trip.sub picks
// the section: (none) expenses, `balances`, `travellers`, `rates`.
// testids: expenses-tab, expenses-summary, expense-new, payment-new, expenses-csv,
//   balances-csv, expenses-section-<list|balances|travellers|rates> (the section buttons),
//   expense-form-slot, plus those of trip-expenses-form.js and trip-expenses-parts.js
//   (expense-add, expense-item, balance-row, settle-transfer, settle-record, traveller-row,
//   traveller-add, rates-form …).

import { get, post, del, seg } from '../api.js';
import { h, tabs, download, flash, describe, empty } from '../dom.js';
import { debounce, isBusy, rerender } from '../ui.js';
import { expenseForm, paymentForm } from './trip-expenses-form.js';
import { money } from './trip-expenses-money.js';
import { expenseList, balanceList, settlementList, debtList, travellerList, travellerAddForm, ratesPanel } from './trip-expenses-parts.js';
import { setSubRoute } from './trip-common.js';

const SECTIONS = [
  ['list', 'Expenses'],
  ['balances', 'Balances & settle up'],
  ['travellers', 'Travellers'],
  ['rates', 'Currency & rates'],
];

function fileName(trip, suffix) {
  const name =
    ((trip.itinerary && trip.itinerary.name) || 'trip')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'trip';
  return `${name}-${suffix}`;
}

export async function renderTab(container, trip, ctx) {
  const base = `/v1/itineraries/${seg(trip.id)}`;
  const me = ctx.status && ctx.status.id;
  const canEdit = !!trip.canEdit;
  const state = {
    section: SECTIONS.some(([id]) => id === trip.sub) ? trip.sub : 'list',
    filter: 'all',
    renaming: null,
    data: {},
    errors: {},
    items: null,
    closed: false,
  };

  const summary = h('div', { class: 'money-summary', dataset: { testid: 'expenses-summary' }, 'aria-live': 'polite' });
  const formSlot = h('div', { class: 'form-slot', dataset: { testid: 'expense-form-slot' } });
  const strip = h('div');
  const panel = h('div', { class: 'money-panel', role: 'tabpanel' });
  const addTraveller = canEdit ? travellerAddForm({ trip, onChange: () => reload() }) : null;
  const toolbar = h(
    'div',
    { class: 'toolbar money-toolbar' },
    canEdit ? h('button', { type: 'button', class: 'primary', dataset: { testid: 'expense-new' }, onclick: () => openForm('expense') }, 'Add expense') : null,
    canEdit ? h('button', { type: 'button', dataset: { testid: 'payment-new' }, onclick: () => openForm('payment') }, 'Record a payment') : null,
    h('button', { type: 'button', dataset: { testid: 'expenses-csv' }, onclick: (e) => csv(e.currentTarget, 'expenses.csv') }, 'Expenses CSV'),
    h('button', { type: 'button', dataset: { testid: 'balances-csv' }, onclick: (e) => csv(e.currentTarget, 'balances.csv') }, 'Balances CSV'),
  );
  container.replaceChildren(h('section', { class: 'money-tab', dataset: { testid: 'expenses-tab' }, 'aria-label': 'Expenses' }, summary, toolbar, formSlot, strip, panel));

  async function csv(button, file) {
    button.disabled = true;
    try {
      await download(`${base}/${file}`, fileName(trip, file), 'text/csv');
    } catch (error) {
      flash(describe(error));
    } finally {
      button.disabled = false;
    }
  }

  async function load(withItems = false) {
    const wanted = {
      travellers: `${base}/travellers`,
      expenses: `${base}/expenses`,
      balances: `${base}/balances`,
      settlement: `${base}/settlement`,
      debts: `${base}/debts`,
      rates: `${base}/rates`,
    };
    if (withItems || state.items === null) wanted.items = `${base}/items`;
    const keys = Object.keys(wanted);
    const results = await Promise.allSettled(keys.map((k) => get(wanted[k])));
    keys.forEach((k, i) => {
      if (results[i].status === 'fulfilled') {
        if (k === 'items') state.items = results[i].value.items || [];
        else state.data[k] = results[i].value;
        delete state.errors[k];
      } else {
        state.errors[k] = results[i].reason;
        if (k === 'items') state.items = state.items || [];
      }
    });
  }

  const itemTitle = (id) => {
    const item = (state.items || []).find((it) => it.id === id);
    return item ? item.title : 'a deleted item';
  };
  const settlementCurrency = () => (state.data.rates && state.data.rates.currency) || (state.data.balances && state.data.balances.currency) || null;

  function renderSummary() {
    const report = state.data.balances;
    const currency = report && report.currency;
    const expenses = (state.data.expenses && state.data.expenses.expenses) || [];
    let spent = 0;
    for (const e of expenses) if (e.kind === 'expense' && e.settlementAmount.currency === currency) spent += e.settlementAmount.amountMinor;
    const mine = report && report.balances.find((b) => b.traveller === me);
    const parts = [];
    if (currency) parts.push(h('span', { dataset: { testid: 'expenses-total' } }, 'Spent in all: ', h('strong', {}, money(spent, currency))));
    if (mine && mine.balanceMinor > 0) parts.push(h('span', { class: 'owed' }, `You are owed ${money(mine.balanceMinor, currency)}`));
    if (mine && mine.balanceMinor < 0) parts.push(h('span', { class: 'owes' }, `You owe ${money(-mine.balanceMinor, currency)}`));
    if (mine && mine.balanceMinor === 0 && spent) parts.push(h('span', {}, 'You are settled up'));
    if (!currency) parts.push(h('span', { class: 'muted' }, 'No expenses yet.'));
    summary.replaceChildren(...parts);
  }

  function renderStrip() {
    strip.replaceChildren(
      tabs(
        SECTIONS.map(([id, label]) => ({ id: 'money-' + id, label })),
        'money-' + state.section,
        (id) => {
          state.section = id.slice('money-'.length);
          setSubRoute(trip.id, 'expenses', state.section === 'list' ? undefined : state.section);
          renderStrip();
          renderPanel(true);
          const tab = strip.querySelector('[aria-selected=true]');
          if (tab) tab.focus();
        },
        'Expense sections',
      ),
    );
    for (const [id] of SECTIONS) {
      const tab = strip.querySelector(`[data-tab="money-${id}"]`);
      if (tab) tab.dataset.testid = 'expenses-section-' + id;
    }
    panel.setAttribute('aria-labelledby', 'tab-money-' + state.section);
  }

  function failed(key) {
    const error = state.errors[key];
    return error ? h('p', { class: 'field-error', role: 'alert' }, describe(error)) : null;
  }

  function renderPanel(force = false) {
    const s = state.section;
    if (!force && [...panel.querySelectorAll('form')].some((f) => f !== addTraveller && isBusy(f))) return;
    let content;
    if (s === 'list') {
      const expenses = (state.data.expenses && state.data.expenses.expenses) || [];
      content = [
        failed('expenses'),
        expenseList(expenses, state.filter, {
          canEdit,
          itemTitle,
          onFilter: (value) => {
            state.filter = value;
            renderPanel(true);
          },
          onEdit: (expense) => openForm(expense.kind === 'transfer' ? 'payment' : 'expense', expense),
          onDelete: async (expense) => {
            await del(`${base}/expenses/${seg(expense.id)}`);
            await reload();
          },
        }),
      ];
    } else if (s === 'balances') {
      content = [
        h('h3', {}, 'Balances'),
        failed('balances'),
        balanceList(state.data.balances, me),
        h('h3', {}, 'Settle up'),
        failed('settlement'),
        settlementList(state.data.settlement, { canEdit, onRecord: record }),
        h('details', { class: 'debts-box', dataset: { testid: 'debts' } }, h('summary', {}, 'Who owes whom, pair by pair'), failed('debts'), debtList(state.data.debts)),
      ];
    } else if (s === 'travellers') {
      content = [
        h('p', { class: 'muted' }, 'Everyone on the trip shares expenses; add people without the app by name.'),
        failed('travellers'),
        state.data.travellers
          ? travellerList(state.data.travellers, {
              trip,
              canEdit,
              me,
              renaming: state.renaming,
              onChange: () => reload(),
              setRenaming: (id) => {
                state.renaming = id;
                renderPanel(true);
              },
            })
          : empty('…'),
        addTraveller ? h('h3', {}, 'Add a traveller') : null,
        addTraveller,
      ];
    } else {
      content = [failed('rates'), ratesPanel(state.data.rates, { trip, canEdit, onChange: () => reload() })];
    }
    rerender(panel, content);
  }

  function renderAll() {
    if (state.closed) return;
    renderSummary();
    renderPanel();
  }

  async function reload() {
    await load();
    renderAll();
  }

  async function record(transfer, currency) {
    await post(`${base}/expenses`, {
      kind: 'transfer',
      title: `${transfer.fromName} paid ${transfer.toName}`,
      amount: { amountMinor: transfer.amountMinor, currency },
      paidBy: [{ traveller: transfer.from }],
      split: { mode: 'exact', among: [{ traveller: transfer.to, amountMinor: transfer.amountMinor }] },
    });
    flash(`Recorded: ${transfer.fromName} paid ${transfer.toName} ${money(transfer.amountMinor, currency)}.`, 'ok');
    await reload();
  }

  function closeForm() {
    formSlot.replaceChildren();
  }

  async function openForm(kind, expense) {
    if (state.items === null || kind === 'expense') {
      try {
        state.items = (await get(`${base}/items`)).items || [];
      } catch {
        state.items = state.items || [];
      }
    }
    if (!state.data.travellers) await load();
    const opts = {
      trip,
      me,
      expense,
      items: state.items,
      travellers: state.data.travellers ? state.data.travellers.travellers : [],
      currency: settlementCurrency(),
      rates: (state.data.rates && state.data.rates.rates) || {},
      onCancel: closeForm,
      onDone: async (result) => {
        closeForm();
        flash(expense ? 'Saved.' : result.kind === 'transfer' ? 'Payment recorded.' : 'Expense added.', 'ok');
        await reload();
        const row = panel.querySelector(`[data-testid="expense-item"][data-id="${result.id}"]`);
        if (row) row.classList.add('just-changed');
      },
    };
    const el = kind === 'payment' ? paymentForm(opts) : expenseForm(opts);
    formSlot.replaceChildren(el);
    el.scrollIntoView({ block: 'nearest' });
    const first = el.querySelector('input:not([type=hidden]):not([type=checkbox]), select');
    if (first) first.focus();
  }

  const refresh = debounce(() => {
    if (!state.closed) reload().catch((error) => flash(describe(error)));
  }, 30);

  await load(true);
  renderStrip();
  renderAll();

  return {
    refresh() {
      refresh();
    },
    cleanup() {
      state.closed = true;
      refresh.cancel();
    },
  };
}
