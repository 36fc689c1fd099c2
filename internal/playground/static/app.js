// Gambit playground: one Discord channel of the local stand-in, seen by one
// simulated member at a time. The page reads the channel through the JSON
// API of the playground server (/api/...) and an event stream, and acts as
// the selected member: slash commands, autocomplete, button and select
// clicks, in the language chosen for that member (and for the server). Everything the bot wrote is untrusted text: it is escaped before
// any markup is added (see markdown()).
'use strict';

/* ---------- Discord's numbers ---------- */

// Application command option types.
const OPT = {
  SUBCOMMAND: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5,
  USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10,
};
// Message component types and button styles.
const COMP = {
  ROW: 1, BUTTON: 2, STRING_SELECT: 3, SECTION: 9, TEXT_DISPLAY: 10, THUMBNAIL: 11, MEDIA_GALLERY: 12,
  SEPARATOR: 14, CONTAINER: 17,
};
const BUTTON_STYLES = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'link' };
const LINK_STYLE = 5;
// Discord's default avatar colours, picked by (user id >> 22) % 6.
const AVATAR_COLOURS = ['#5865f2', '#757e8a', '#3ba55c', '#faa61a', '#ed4245', '#eb459e'];

const INTERACTION_ERROR_MS = 6000;
const AUTOCOMPLETE_DELAY_MS = 150;
const RECONNECT_MS = 2000;
const RELATIVE_REFRESH_MS = 30000;
const MEMBER_KEY = 'gambit-playground-member';

/* ---------- Page state ---------- */

const state = {
  info: null,                    // GET /api/state
  names: new Map(),              // user id → display name, for mentions
  member: '',                    // the selected member's id
  messages: new Map(),           // message id → Message, the current view
  dismissed: new Set(),          // ephemeral messages dismissed locally
  interactionErrors: new Map(),  // message id → { text, timer }
  lookedUp: new Set(),           // unknown mentioned users already asked about
};

const $ = (id) => document.getElementById(id);
const ui = {
  channelName: $('channel-name'),
  guildName: $('guild-name'),
  connection: $('connection'),
  connectionLabel: $('connection-label'),
  memberSelect: $('member-select'),
  memberLocale: $('member-locale'),
  serverLocale: $('server-locale'),
  localeStatus: $('locale-status'),
  addMember: $('add-member'),
  membersButton: $('members-button'),
  memberMenu: $('member-menu'),
  messages: $('messages'),
  empty: $('messages-empty'),
  composer: $('composer'),
  hint: $('composer-hint'),
  input: $('command-input'),
  suggestions: $('command-suggestions'),
  form: $('command-form'),
  chipName: $('command-chip-name'),
  cancel: $('command-cancel'),
  fields: $('command-fields'),
  send: $('command-send'),
  error: $('command-error'),
};

/* ---------- Helpers ---------- */

// el builds an element. attrs: "class", "text" (textContent), "html" (only
// ever markdown() output), "on<event>" listeners, anything else an
// attribute (skipped when null/false, empty when true). Children that are
// null or false are skipped, so conditional parts can be written inline.
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'html') e.innerHTML = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...children.filter((c) => c != null && c !== false));
  return e;
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
  })[c]);
}

// api calls the playground server: a GET without body, a POST with one.
// It resolves to the decoded JSON and rejects with the server's error text.
async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(`/api${path}`, init);
  } catch {
    throw new Error('the playground server cannot be reached');
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    // A body that is not JSON: the status below says what went wrong.
  }
  if (!res.ok || (data && typeof data.error === 'string')) {
    throw new Error(data?.error || `${res.status} ${res.statusText}`);
  }
  return data;
}

// compareIDs orders snowflakes (decimal strings) by age.
function compareIDs(a, b) {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function avatarColour(id) {
  try {
    return AVATAR_COLOURS[Number((BigInt(id) >> 22n) % 6n)];
  } catch {
    return AVATAR_COLOURS[0];
  }
}

function avatar(id, name, cls = 'avatar') {
  return el('span', {
    class: cls, 'aria-hidden': 'true', style: `background-color: ${avatarColour(id)}`,
    text: (name || '?').trim().charAt(0).toUpperCase() || '?',
  });
}

/* ---------- Times ---------- */

const RELATIVE_UNITS = [['year', 31536000], ['month', 2592000], ['day', 86400], ['hour', 3600], ['minute', 60]];

// relativeTime says how far unix (seconds) is from now: "in 5 minutes",
// "3 minutes ago", in the selected member's language, as their Discord
// shows it.
function relativeTime(unix) {
  const relativeFormat = new Intl.RelativeTimeFormat(memberLocale(), { numeric: 'always' });
  const diff = unix - Date.now() / 1000;
  for (const [unit, seconds] of RELATIVE_UNITS) {
    if (Math.abs(diff) >= seconds) return relativeFormat.format(Math.round(diff / seconds), unit);
  }
  return relativeFormat.format(Math.round(diff), 'second');
}

// Discord's timestamp styles <t:UNIX:STYLE>; f is the default.
const TIMESTAMP_STYLES = {
  t: { timeStyle: 'short' },
  T: { timeStyle: 'medium' },
  d: { dateStyle: 'short' },
  D: { dateStyle: 'long' },
  f: { dateStyle: 'long', timeStyle: 'short' },
  F: { dateStyle: 'full', timeStyle: 'short' },
};

function formatTimestamp(unix, style) {
  if (style === 'R') return relativeTime(unix);
  return new Date(unix * 1000).toLocaleString(memberLocale(), TIMESTAMP_STYLES[style] ?? TIMESTAMP_STYLES.f);
}

// messageTime is the time in a message header: "Today at 14:03".
function messageTime(date) {
  const time = date.toLocaleTimeString(undefined, { timeStyle: 'short' });
  const day = new Date(date);
  day.setHours(0, 0, 0, 0);
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const days = Math.round((today - day) / 86400000);
  if (days === 0) return `Today at ${time}`;
  if (days === 1) return `Yesterday at ${time}`;
  return `${date.toLocaleDateString(undefined, { dateStyle: 'short' })} ${time}`;
}

function refreshRelativeTimes() {
  for (const t of ui.messages.querySelectorAll('time.timestamp[data-style="R"]')) {
    t.textContent = relativeTime(Number(t.dataset.unix));
  }
}

/* ---------- Markdown ---------- */

// Placeholders stand for finished HTML (code, mentions, links...) while the
// rest of the text is escaped and formatted; they are private-use
// characters, removed from the input first.
const HOLD_OPEN = '\uE000';
const HOLD_CLOSE = '\uE001';
const HELD = /\uE000(\d+)\uE001/g;

// Emphasis, applied to escaped text (whose entities contain none of these
// markers). Strong before em so that ** is not read as two *.
const EMPHASIS = [
  [/\*\*\*(?!\s)([\s\S]+?)\*\*\*/g, '<strong><em>$1</em></strong>'],
  [/\*\*(?!\s)([\s\S]+?)\*\*/g, '<strong>$1</strong>'],
  [/__([\s\S]+?)__/g, '<u>$1</u>'],
  [/\*(?![\s*])([^*]+?)(?<!\s)\*/g, '<em>$1</em>'],
  [/\b_([^_]+?)_\b/g, '<em>$1</em>'],
  [/~~([\s\S]+?)~~/g, '<s>$1</s>'],
];

// markdown renders Discord markdown as HTML: every piece of the text is
// escaped; only the markup added here is HTML.
function markdown(text) {
  const held = [];
  const hold = (html) => `${HOLD_OPEN}${held.push(html) - 1}${HOLD_CLOSE}`;
  const source = String(text ?? '').replace(/[\uE000\uE001]/g, '');
  // Odd parts are the insides of ``` code blocks, where nothing is markdown.
  const parts = source.split(/```([\s\S]*?)```/);
  const html = parts.map((part, i) => {
    if (i % 2 === 1) return codeBlock(part);
    // The newlines next to a code block are the block's own line breaks.
    if (i > 0) part = part.replace(/^\n/, '');
    if (i < parts.length - 1) part = part.replace(/\n$/, '');
    return quoteBlocks(part, hold);
  }).join('');
  const restore = (s) => s.replace(HELD, (_, n) => restore(held[n]));
  return restore(html);
}

function codeBlock(body) {
  // ```lang\n...```: the first line names the language when it is one word.
  const code = body.replace(/^[\w+-]+\n(?=[\s\S])/, '').replace(/^\n/, '').replace(/\n$/, '');
  return `<pre class="code-block"><code>${escapeHTML(code)}</code></pre>`;
}

// LINE_BLOCK matches a line Discord draws as a block of its own: a heading
// ("# ", "## ", "### ") or small print ("-# "), on any line of a text.
const LINE_BLOCK = /^(#{1,3}|-#) (.*)$/;

// lineBlock draws such a line.
function lineBlock(mark, text, hold) {
  const cls = mark === '-#' ? 'text-small' : `text-heading h${mark.length}`;
  return `<div class="${cls}">${inline(text, hold)}</div>`;
}

// quoteBlocks renders runs of "> " lines (and everything after ">>> ") as
// block quotes, headings and small print as blocks, the other lines as
// formatted text.
function quoteBlocks(text, hold) {
  const lines = text.split('\n');
  let html = '';
  let run = [];
  let quoted = false;
  // linePart is a line as the run keeps it: its text, or a block's HTML.
  const linePart = (line) => {
    const block = LINE_BLOCK.exec(line);
    return block ? { html: lineBlock(block[1], block[2], hold) } : line;
  };
  const flush = () => {
    if (run.length) {
      // Consecutive lines of text are formatted together (emphasis may
      // span them); a block line ends the line before it by itself.
      let inner = '';
      let texts = [];
      for (const part of [...run, null]) {
        if (typeof part === 'string') {
          texts.push(part);
          continue;
        }
        if (texts.length) inner += inline(texts.join('\n'), hold);
        texts = [];
        if (part) inner += part.html;
      }
      html += quoted ? `<blockquote>${inner}</blockquote>` : inner;
    }
    run = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const rest = /^>>> ?([\s\S]*)$/.exec(lines[i]);
    if (rest) {
      flush();
      quoted = true;
      run = [rest[1], ...lines.slice(i + 1)].map(linePart);
      break;
    }
    const quote = /^> (.*)$|^>$/.exec(lines[i]);
    if (Boolean(quote) !== quoted) {
      flush();
      quoted = Boolean(quote);
    }
    run.push(linePart(quote ? quote[1] ?? '' : lines[i]));
  }
  flush();
  return html;
}

// inline formats one run of text; newlines stay newlines (the content
// elements use white-space: pre-wrap).
function inline(text, hold) {
  const s = text
    .replace(/``([\s\S]+?)``|`([^`]+?)`/g, (_, a, b) => hold(`<code class="inline-code">${escapeHTML(a ?? b)}</code>`))
    .replace(/\\([\\*_~`|>[\]()<#@:])/g, (_, c) => hold(escapeHTML(c)))
    .replace(/<@!?(\d+)>/g, (_, id) => hold(userMention(id)))
    .replace(/<#(\d+)>/g, (_, id) => hold(channelMention(id)))
    .replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, unix, style) => hold(timestamp(Number(unix), style ?? 'f')))
    .replace(/\[([^\]\n]+)\]\(<?(https?:\/\/[^\s()<>]+)>?\)/g, (_, label, url) => hold(link(url, formatText(label))))
    .replace(/https?:\/\/[^\s<>\uE000\uE001]*[^\s<>.,:;"')\]\uE000\uE001]/g, (url) => hold(link(url, escapeHTML(url))));
  return formatText(s);
}

// EMOJI matches an emoji as it is drawn: a keycap, a flag or one regional
// indicator, or a pictograph in emoji presentation with its modifier and
// ZWJ sequence. Pictographs in text presentation (↗ without U+FE0F) stay
// text.
const EMOJI = /[0-9#*]\uFE0F\u20E3|\p{RI}{1,2}|(?:\p{Emoji_Presentation}\uFE0F?|\p{Extended_Pictographic}\uFE0F)\p{EMod}?(?:\u200D(?:\p{Emoji_Presentation}\uFE0F?|\p{Extended_Pictographic}\uFE0F?))*/gu;

// formatText escapes text, applies emphasis and wraps emoji in spans, which
// draw them in a colour emoji font at one size so that the emoji grids of
// boards keep their columns aligned.
function formatText(text) {
  return EMPHASIS.reduce((s, [re, html]) => s.replace(re, html), escapeHTML(text))
    .replace(EMOJI, '<span class="emoji">$&</span>');
}

// MESSAGE_LINK is a Discord message link, which the bot writes for real
// Discord ("board" in /games, "This board moved"); its guild, channel and
// message IDs.
const MESSAGE_LINK = /^https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/channels\/(\d+|@me)\/(\d+)\/(\d+)$/;

// link draws a link; a link to a message of the playground's channel stays
// in the page and scrolls to that message.
function link(url, labelHTML) {
  const msg = MESSAGE_LINK.exec(url);
  if (msg && msg[2] === state.info?.channel?.id) {
    return `<a href="#message-${escapeHTML(msg[3])}" class="message-link">${labelHTML}</a>`;
  }
  return `<a href="${escapeHTML(url)}" target="_blank" rel="noopener noreferrer">${labelHTML}</a>`;
}

function userMention(id) {
  const name = state.names.get(id);
  if (name === undefined) lookUpUser(id);
  return `<span class="mention" data-user-id="${escapeHTML(id)}">@${escapeHTML(name ?? 'unknown-user')}</span>`;
}

function channelMention(id) {
  const ch = state.info?.channel;
  const name = ch && ch.id === id ? ch.name : 'unknown-channel';
  return `<span class="mention">#${escapeHTML(name)}</span>`;
}

function timestamp(unix, style) {
  const date = new Date(unix * 1000);
  if (Number.isNaN(date.getTime())) return escapeHTML(`<t:${unix}:${style}>`);
  const full = date.toLocaleString(undefined, TIMESTAMP_STYLES.F);
  return `<time class="timestamp" datetime="${date.toISOString()}" data-unix="${unix}" data-style="${style}" title="${escapeHTML(full)}">${escapeHTML(formatTimestamp(unix, style))}</time>`;
}

/* ---------- Messages ---------- */

function renderMessage(m) {
  const author = m.author ?? {};
  const classes = ['message'];
  if (m.ephemeral) classes.push('ephemeral');
  if (m.thread) classes.push('in-thread');
  const date = new Date(m.timestamp);
  const hasDate = !Number.isNaN(date.getTime());

  const header = el('div', { class: 'message-header' },
    el('span', { class: 'author-name', 'data-user-id': author.bot ? null : author.id, text: author.name ?? 'unknown' }),
    author.bot && el('span', { class: 'bot-tag', text: 'BOT' }),
    hasDate && el('time', {
      class: 'message-time', datetime: date.toISOString(),
      title: date.toLocaleString(undefined, TIMESTAMP_STYLES.F), text: messageTime(date),
    }),
    m.edited && el('span', { class: 'edited', text: '(edited)' }));

  const content = m.loading
    ? el('div', { class: 'message-content thinking' },
      `${author.name ?? 'The bot'} is thinking`, el('span', { class: 'thinking-dots', 'aria-hidden': 'true' }, '…'))
    : el('div', { class: 'message-content', html: markdown(m.content) });

  const body = el('div', { class: 'message-body' },
    header,
    content,
    ...(m.embeds ?? []).map((e) => renderEmbed(m, e)),
    renderComponents(m),
    m.starts_thread && el('div', { class: 'thread-starter', text: `🧵 ${m.starts_thread.name}` }),
    m.ephemeral && el('div', { class: 'ephemeral-note' },
      el('span', { class: 'ephemeral-eye', 'aria-hidden': 'true', text: '👁' }),
      ' Only you can see this · ',
      el('button', { type: 'button', class: 'dismiss-button', onclick: () => dismiss(m.id), text: 'Dismiss' })),
    state.interactionErrors.has(m.id) && interactionError(state.interactionErrors.get(m.id).text));

  return el('article', {
    class: classes.join(' '), id: `message-${m.id}`, 'data-message-id': m.id, tabindex: '-1',
    'aria-label': `${author.name ?? 'unknown'}${m.ephemeral ? ', only you can see this' : ''}`,
  },
  // A thread's messages show inline, marked with their thread's name.
  m.thread && el('div', { class: 'thread-line', text: `🧵 ${m.thread.name}` }),
  m.interaction && el('div', { class: 'interaction-line' },
    avatar(m.interaction.user_id ?? '', m.interaction.user_name, 'avatar avatar-mini'),
    el('span', { class: 'interaction-user', 'data-user-id': m.interaction.user_id, text: m.interaction.user_name ?? 'someone' }),
    ' used ',
    el('span', { class: 'interaction-command', text: commandText(m.interaction.command) })),
  avatar(author.id ?? '', author.name),
  body);
}

// commandText is the command a message answers ("/help", "/privacy
// delete", or a user command's name) as the selected member's Discord
// names it: "/bantuan".
function commandText(command = '') {
  if (!command.startsWith('/')) {
    // A user command (a member's "Apps"), which Discord names without "/".
    const app = (state.info?.user_commands ?? []).find((c) => c.name === command);
    return app ? localized(app, 'name') : command;
  }
  const [name, ...subs] = command.replace(/^\//, '').split(' ');
  const cmd = (state.info?.commands ?? []).find((c) => c.name === name);
  if (!cmd) return `/${command.replace(/^\//, '')}`;
  const words = [localized(cmd, 'name')];
  let options = cmd.options ?? [];
  for (const sub of subs) {
    const o = options.find((x) => x.name === sub);
    words.push(o ? localized(o, 'name') : sub);
    options = o?.options ?? [];
  }
  return `/${words.join(' ')}`;
}

function colourOf(embed) {
  return Number.isInteger(embed.color) && embed.color > 0
    ? `#${embed.color.toString(16).padStart(6, '0')}`
    : null;
}

function renderEmbed(m, embed) {
  const colour = colourOf(embed);
  const fields = embed.fields ?? [];
  return el('div', { class: 'embed', style: colour && `--embed-colour: ${colour}` },
    embed.title && el('div', { class: 'embed-title', html: markdown(embed.title) }),
    embed.description && el('div', { class: 'embed-description', html: markdown(embed.description) }),
    fields.length > 0 && el('div', { class: 'embed-fields' },
      ...fields.map((f) => el('div', { class: f.inline ? 'embed-field inline' : 'embed-field' },
        el('div', { class: 'embed-field-name', html: markdown(f.name) }),
        el('div', { class: 'embed-field-value', html: markdown(f.value) })))),
    embed.image?.url && mediaImage(m, embed.image.url),
    embed.footer?.text && el('div', { class: 'embed-footer', text: embed.footer.text }));
}

// renderComponents draws a message's components: action rows of a classic
// message, and the layout of a components-v2 message (text displays,
// containers with their accent colour, media galleries, separators and
// sections) in their order.
function renderComponents(m) {
  const parts = (m.components ?? []).map((c) => renderComponent(m, c)).filter(Boolean);
  if (parts.length === 0) return null;
  return el('div', { class: 'components' }, ...parts);
}

function renderComponent(m, c) {
  switch (c.type) {
    case COMP.ROW:
      return el('div', { class: 'action-row' },
        ...(c.components ?? []).map((cc) => {
          if (cc.type === COMP.BUTTON) return renderButton(m, cc);
          if (cc.type === COMP.STRING_SELECT) return renderSelect(m, cc);
          return null;
        }));
    case COMP.TEXT_DISPLAY:
      return renderTextDisplay(c.content);
    case COMP.CONTAINER: {
      const colour = colourOf({ color: c.accent_color });
      return el('div', { class: 'container', style: colour && `--embed-colour: ${colour}` },
        ...(c.components ?? []).map((cc) => renderComponent(m, cc)));
    }
    case COMP.MEDIA_GALLERY:
      return el('div', { class: 'media-gallery' },
        ...(c.items ?? []).map((it) => mediaImage(m, it.media?.url, it.description)));
    case COMP.SEPARATOR:
      return el('hr', { class: 'separator' });
    case COMP.SECTION:
      return el('div', { class: 'section' },
        el('div', { class: 'section-text' }, ...(c.components ?? []).map((cc) => renderComponent(m, cc))),
        c.accessory && (c.accessory.type === COMP.THUMBNAIL
          ? mediaImage(m, c.accessory.media?.url, c.accessory.description)
          : renderComponent(m, { type: COMP.ROW, components: [c.accessory] })));
    default:
      return null;
  }
}

// renderTextDisplay draws a text display's markdown.
function renderTextDisplay(text = '') {
  return el('div', { class: 'text-display', html: markdown(text) });
}

// mediaImage shows a picture of a message: attachment://name is the file
// of that name uploaded with the message, served by the stand-in.
function mediaImage(m, url = '', description) {
  const name = url.startsWith('attachment://') ? url.slice('attachment://'.length) : null;
  const src = name === null ? url : (m.attachments ?? []).find((a) => a.filename === name)?.url;
  if (!src || !/^https?:\/\//i.test(src)) {
    return el('div', { class: 'media-missing', text: `missing picture ${name ?? url}` });
  }
  return el('img', { class: 'media', src, alt: description ?? '', loading: 'lazy' });
}

function renderButton(m, c) {
  const emoji = c.emoji?.name;
  const parts = [
    emoji && el('span', { class: 'button-emoji', text: emoji }),
    c.label && el('span', { class: 'button-label', text: c.label }),
  ];
  if (c.style === LINK_STYLE) {
    const safe = /^https?:\/\//i.test(c.url ?? '');
    return el('a', {
      class: 'button button-link', href: safe && !c.disabled ? c.url : null,
      target: '_blank', rel: 'noopener noreferrer', 'aria-disabled': c.disabled ? 'true' : null,
    }, ...parts, el('span', { class: 'link-arrow', 'aria-hidden': 'true', text: '↗' }));
  }
  const button = el('button', {
    type: 'button', class: `button button-${BUTTON_STYLES[c.style] ?? 'secondary'}`,
    'data-custom-id': c.custom_id, disabled: Boolean(c.disabled),
    'aria-label': c.label ? null : emoji,
  }, ...parts);
  button.addEventListener('click', () => click(m.id, c.custom_id, button));
  return button;
}

function renderSelect(m, c) {
  const placeholder = c.placeholder || 'Make a selection';
  const select = el('select', {
    class: 'component-select', 'data-custom-id': c.custom_id, disabled: Boolean(c.disabled),
    'aria-label': placeholder,
  },
  el('option', { value: '', disabled: true, selected: true, text: placeholder }),
  ...(c.options ?? []).map((o) => el('option', {
    value: o.value,
    text: [o.emoji?.name, o.label].filter(Boolean).join(' ') + (o.description ? ` — ${o.description}` : ''),
  })));
  select.addEventListener('change', () => {
    const value = select.value;
    select.selectedIndex = 0;
    click(m.id, c.custom_id, select, [value]);
  });
  return select;
}

// click sends a button press or a select choice, with the control disabled
// until the bot answered.
async function click(messageId, customId, control, values) {
  control.disabled = true;
  const body = { member: state.member, message: messageId, custom_id: customId };
  if (values) body.values = values;
  try {
    await api('/click', body);
  } catch (err) {
    showInteractionError(messageId, err.message);
  } finally {
    control.disabled = false;
  }
}

function interactionError(text) {
  return el('div', { class: 'interaction-error', role: 'alert', text: `This interaction failed: ${text}` });
}

// showInteractionError shows text under the message for a few seconds; it
// is kept in state so that it survives the message being redrawn.
function showInteractionError(messageId, text) {
  clearTimeout(state.interactionErrors.get(messageId)?.timer);
  const timer = setTimeout(() => {
    state.interactionErrors.delete(messageId);
    messageElement(messageId)?.querySelector('.interaction-error')?.remove();
  }, INTERACTION_ERROR_MS);
  state.interactionErrors.set(messageId, { text, timer });
  const body = messageElement(messageId)?.querySelector('.message-body');
  if (body) {
    body.querySelector('.interaction-error')?.remove();
    body.append(interactionError(text));
  }
}

function dismiss(id) {
  state.dismissed.add(id);
  const next = messageElement(id)?.nextElementSibling;
  removeMessage(id);
  (next?.matches('.message') ? next : ui.input).focus();
}

function messageElement(id) {
  return ui.messages.querySelector(`.message[data-message-id="${CSS.escape(id)}"]`);
}

function removeMessage(id) {
  state.messages.delete(id);
  const e = messageElement(id);
  if (e) {
    growth.unobserve(e);
    e.remove();
  }
}

// learnNames records the names a message tells, so that mentions of its
// author and of the member who used the command show names.
function learnNames(m) {
  if (m.author?.id && m.author.name) state.names.set(m.author.id, m.author.name);
  if (m.interaction?.user_id && m.interaction.user_name) {
    state.names.set(m.interaction.user_id, m.interaction.user_name);
  }
}

// applyMessage inserts, replaces or removes a message, keeping the list in
// ID (so creation) order and keyboard focus on the control that had it.
function applyMessage(m) {
  if (m.deleted || state.dismissed.has(m.id)) {
    removeMessage(m.id);
    return;
  }
  learnNames(m);
  state.messages.set(m.id, m);
  const fresh = renderMessage(m);
  const old = messageElement(m.id);
  growth.observe(fresh);
  if (old) {
    const focused = old.contains(document.activeElement) ? document.activeElement : null;
    growth.unobserve(old);
    old.replaceWith(fresh);
    if (focused) restoreFocus(focused, fresh);
    return;
  }
  let after = null;
  for (const e of [...ui.messages.querySelectorAll('.message')].reverse()) {
    if (compareIDs(e.dataset.messageId, m.id) < 0) {
      after = e;
      break;
    }
  }
  if (after) after.after(fresh);
  else ui.empty.after(fresh);
}

function restoreFocus(focused, fresh) {
  const id = focused.dataset.customId;
  const same = id && fresh.querySelector(`[data-custom-id="${CSS.escape(id)}"]:not(:disabled)`);
  (same || fresh).focus({ preventScroll: true });
}

function atBottom() {
  const list = ui.messages;
  return list.scrollHeight - list.scrollTop - list.clientHeight < 48;
}

// pinned is whether the list is scrolled to the bottom, as the member
// last left it: a message growing after it was drawn (its pictures load)
// moves the bottom away without a scroll, and the list follows it.
let pinned = true;

// growth keeps a pinned list at the bottom as the list and its messages
// change size.
const growth = new ResizeObserver(() => {
  if (pinned) scrollToBottom();
});

// update applies changes to the list, keeping it scrolled to the bottom if
// it was there (or if stick is true).
function update(change, stick = false) {
  const wasAtBottom = pinned || atBottom();
  change();
  ui.empty.hidden = state.messages.size > 0;
  if (wasAtBottom || stick) scrollToBottom();
}

function scrollToBottom() {
  ui.messages.scrollTop = ui.messages.scrollHeight;
  pinned = true;
}

function clearMessages() {
  for (const e of ui.messages.querySelectorAll('.message')) {
    growth.unobserve(e);
    e.remove();
  }
  state.messages.clear();
}

function rerenderMessages() {
  update(() => {
    for (const m of [...state.messages.values()]) applyMessage(m);
  });
}

/* ---------- Live stream ---------- */

const stream = { source: null, generation: 0, retry: 0 };

function setConnection(open, detail = '') {
  ui.connection.dataset.state = open ? 'open' : 'closed';
  ui.connectionLabel.textContent = open ? 'Live' : 'Reconnecting…';
  ui.connection.title = open ? 'Receiving messages live' : detail || 'Not connected to the playground server';
}

// connect (re)opens the event stream of the selected member. Each time the
// stream opens, the page reloads the member's messages: the changes that
// arrive while they load are kept and applied on top, in order, since each
// carries the message's whole state. A stream the browser gave up on
// (readyState CLOSED) is reopened after a pause.
function connect() {
  stream.source?.close();
  clearTimeout(stream.retry);
  const generation = ++stream.generation;
  const current = () => generation === stream.generation;
  const source = new EventSource(`/api/events?member=${encodeURIComponent(state.member)}`);
  stream.source = source;
  let pending = null; // changes that arrived while the messages load

  const retryLater = (detail) => {
    setConnection(false, detail);
    source.close();
    stream.retry = setTimeout(connect, RECONNECT_MS);
  };

  source.addEventListener('open', async () => {
    // A reconnect while messages load starts over with its own buffer.
    const buffer = [];
    pending = buffer;
    let list;
    try {
      list = await api(`/messages?member=${encodeURIComponent(state.member)}`);
    } catch (err) {
      if (current() && pending === buffer) retryLater(err.message);
      return;
    }
    if (!current() || pending !== buffer) return;
    update(() => {
      clearMessages();
      for (const m of list ?? []) applyMessage(m);
      for (const m of buffer) applyMessage(m);
    }, true);
    pending = null;
    setConnection(true);
  });

  source.addEventListener('message', (event) => {
    if (!current()) return;
    let m;
    try {
      m = JSON.parse(event.data);
    } catch {
      return; // not a message: nothing to show
    }
    if (pending) pending.push(m);
    else update(() => applyMessage(m));
  });

  source.addEventListener('error', () => {
    if (!current()) return;
    if (source.readyState === EventSource.CLOSED) retryLater();
    else setConnection(false); // the browser reconnects by itself
  });
}

/* ---------- Members ---------- */

// applyState takes the guild, channel, members and commands from
// GET /api/state.
function applyState(info) {
  state.info = info;
  state.names.set(info.bot.id, info.bot.name);
  for (const m of info.members ?? []) state.names.set(m.id, m.name);
  ui.channelName.textContent = info.channel.name;
  ui.guildName.textContent = info.guild.name;
  document.title = `#${info.channel.name} · ${info.guild.name} · Gambit playground`;
  ui.messages.setAttribute('aria-label', `Messages in #${info.channel.name}`);
  fillMemberSelect(ui.memberSelect, state.member);
  for (const f of composer.fields) {
    if (f.input.classList.contains('member-options')) fillMemberSelect(f.input, f.input.value, blankText(f.option));
  }
  fillLocaleSelect(ui.memberLocale, memberLocale());
  fillLocaleSelect(ui.serverLocale, info.guild.locale);
}

// fillMemberSelect lists the members in a <select>, keeping the selected
// value. For a command option, a first entry (blank: its text) stands for
// no value, and the selected member is left out: every user option of
// Gambit's commands means someone else (an opponent, whose stats), left
// blank for yourself.
function fillMemberSelect(select, value, blank) {
  const options = (state.info.members ?? [])
    .filter((m) => blank === undefined || m.id !== state.member)
    .map((m) => el('option', { value: m.id, text: m.name }));
  if (blank !== undefined) options.unshift(el('option', { value: '', text: blank }));
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

function selectMember(id) {
  state.member = id;
  ui.memberSelect.value = id;
  ui.memberLocale.value = memberLocale();
  ui.localeStatus.textContent = '';
  try {
    localStorage.setItem(MEMBER_KEY, id);
  } catch {
    // Storage may be unavailable (private mode): the choice just isn't kept.
  }
  for (const { timer } of state.interactionErrors.values()) clearTimeout(timer);
  state.interactionErrors.clear();
  update(clearMessages);
  setConnection(false, 'Loading messages…');
  connect();
}

async function addMember() {
  const name = window.prompt('Name of the new member:')?.trim();
  if (!name) return;
  ui.addMember.disabled = true;
  try {
    const member = await api('/members', { name });
    state.info.members = [...(state.info.members ?? []), member];
    applyState(state.info);
    selectMember(member.id);
  } catch (err) {
    showCommandError(`Could not add the member: ${err.message}`);
  } finally {
    ui.addMember.disabled = false;
  }
}

/* ---------- Member menu ---------- */

// openMemberMenu shows, beside anchor, each member's menu: the apps
// (user commands: "Challenge to a game") the selected member can use on
// them, and whether they may manage the server (a role only the server's
// owner could give in Discord; here anyone may, to try both sides).
function openMemberMenu(anchor, members) {
  ui.memberMenu.replaceChildren(...members.map(memberMenuEntry));
  ui.memberMenu.hidden = false;
  const r = anchor.getBoundingClientRect();
  const menu = ui.memberMenu.getBoundingClientRect();
  ui.memberMenu.style.left = `${Math.max(8, Math.min(r.left, window.innerWidth - menu.width - 8))}px`;
  const below = r.bottom + 4;
  ui.memberMenu.style.top = `${below + menu.height <= window.innerHeight ? below : Math.max(8, r.top - menu.height - 4)}px`;
  ui.memberMenu.querySelector('button, input')?.focus();
}

function closeMemberMenu() {
  ui.memberMenu.hidden = true;
  ui.memberMenu.replaceChildren();
}

function memberMenuEntry(member) {
  const apps = (state.info.user_commands ?? []).map((c) => el('button', {
    type: 'button', class: 'member-app', 'data-app': c.name,
    onclick: () => runUserCommand(c, member),
    text: localized(c, 'name'),
  }));
  const manage = el('input', {
    type: 'checkbox', checked: !member.no_manage_server,
    onchange: (event) => setManageServer(member, event.target),
  });
  return el('section', { class: 'member-entry', 'data-member': member.id, 'aria-label': member.name },
    el('div', { class: 'member-entry-name' }, avatar(member.id, member.name, 'avatar avatar-mini'),
      el('span', { text: member.name + (member.id === state.member ? ' (you)' : '') })),
    apps.length > 0 && el('div', { class: 'member-entry-heading', text: 'Apps' }),
    ...apps,
    el('label', { class: 'member-role' }, manage, ' Manage Server'));
}

// runUserCommand uses a user command on member as the selected member.
async function runUserCommand(cmd, member) {
  closeMemberMenu();
  showCommandError('');
  try {
    await api('/user-command', { member: state.member, name: cmd.name, target: member.id });
  } catch (err) {
    showCommandError(`${localized(cmd, 'name')}: ${err.message}`);
  }
}

// setManageServer gives member Manage Server or takes it away, as box
// says; a refusal puts the box back.
async function setManageServer(member, box) {
  box.disabled = true;
  try {
    applyState(await api('/permissions', { member: member.id, manage_server: box.checked }));
    showCommandError('');
    ui.localeStatus.textContent = box.checked
      ? `${member.name} may manage the server now: their Discord offers /settings.`
      : `${member.name} may not manage the server now: their Discord hides /settings, as for most members.`;
  } catch (err) {
    box.checked = !box.checked;
    showCommandError(`Could not change ${member.name}'s permissions: ${err.message}`);
  } finally {
    box.disabled = false;
  }
}

/* ---------- Languages ---------- */

// The locales come from the bot's catalogue (GET /api/state's locales:
// Discord locale codes such as "en-US" and "id"); the browser names them.
const languageNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' });
  } catch {
    return null;
  }
})();

// localeName names a Discord locale: "Indonesian (id)".
function localeName(code) {
  const base = code.split('-')[0];
  let name = null;
  try {
    name = languageNames?.of(base);
  } catch {
    // Not a language code the browser knows: the code alone.
  }
  return name && name !== base ? `${name} (${code})` : code;
}

// memberLocale is the Discord locale of the selected member's client.
function memberLocale() {
  return state.info?.members?.find((m) => m.id === state.member)?.locale ?? 'en-US';
}

// localized returns a command's, option's or choice's name or description
// (key) as the selected member's Discord shows it: its localization for
// the member's locale, if it has one. What is sent stays the name itself,
// as Discord's interactions carry it.
function localized(item, key) {
  return item[`${key}_localizations`]?.[memberLocale()] ?? item[key];
}

function fillLocaleSelect(select, value) {
  select.replaceChildren(...(state.info.locales ?? []).map((l) => el('option', { value: l, text: localeName(l) })));
  select.value = value;
}

// setLocale asks the playground to set the locale chosen in select for
// target ({ member } or { guild }); on a refusal the select goes back to
// the locale in force and the error is shown.
async function setLocale(select, target) {
  const locale = select.value;
  select.disabled = true;
  ui.localeStatus.textContent = '';
  try {
    applyState(await api('/locale', { ...target, locale }));
    ui.localeStatus.textContent = target.guild
      ? `The server speaks ${localeName(locale)} now: new challenges and boards are written in it; a board already posted changes at its next edit.`
      : `${state.names.get(target.member)}'s Discord speaks ${localeName(locale)} now: the bot answers them in it, and the command box shows the commands' names in it.`;
    showCommandError('');
  } catch (err) {
    applyState(state.info);
    showCommandError(`Could not set the language: ${err.message}`);
  } finally {
    select.disabled = false;
  }
}

// lookUpUser reloads the state once for a mentioned user the page does not
// know (a member added elsewhere), then redraws the messages.
let lookUpTimer = 0;
function lookUpUser(id) {
  if (state.lookedUp.has(id)) return;
  state.lookedUp.add(id);
  clearTimeout(lookUpTimer);
  lookUpTimer = setTimeout(async () => {
    try {
      applyState(await api('/state'));
      rerenderMessages();
    } catch {
      // The mention keeps showing "@unknown-user".
    }
  }, 300);
}

/* ---------- Command composer ---------- */

// The composer is in text mode (composer.command null: the input where "/"
// lists the commands) or in form mode (a command chosen: one field per
// option of the command or of its chosen subcommand).
const composer = {
  command: null,
  subcommands: [],    // [{ path: ['delete'], option }] of the command
  path: null,         // the chosen subcommand's path, null if none chosen
  fields: [],         // [{ option, input, wrapper, picked, ac }] shown
  matches: [],        // commands listed in text mode
  active: -1,         // highlighted command suggestion
  sending: false,
};

function showCommandError(text) {
  ui.error.textContent = text;
}

// mayUse reports whether the selected member's Discord offers a command:
// one with default_member_permissions only to members with all of those
// permissions ("0": to administrators). A member either has every
// permission or every one but Manage Server and Administrator.
function mayUse(cmd) {
  const needed = cmd.default_member_permissions;
  if (needed == null) return true;
  if (!selectedMember()?.no_manage_server) return true;
  const lacking = MANAGE_GUILD | ADMINISTRATOR;
  return needed !== '0' && (BigInt(needed) & lacking) === 0n;
}

const MANAGE_GUILD = 1n << 5n;
const ADMINISTRATOR = 1n << 3n;

function selectedMember() {
  return state.info?.members?.find((m) => m.id === state.member);
}

// commands returns the slash commands (type 1; the others are context
// menu commands) by the name the selected member's Discord shows, in
// their language's order (/bantuan before /main in Indonesian).
function commands() {
  return (state.info?.commands ?? [])
    .filter((c) => (c.type ?? 1) === 1 && mayUse(c))
    .sort((a, b) => localized(a, 'name').localeCompare(localized(b, 'name'), memberLocale()));
}

function setActiveSuggestion(list, input, index) {
  const items = [...list.querySelectorAll('[role="option"]')];
  items.forEach((item, i) => {
    item.classList.toggle('active', i === index);
    item.setAttribute('aria-selected', String(i === index));
  });
  if (items[index]) {
    input.setAttribute('aria-activedescendant', items[index].id);
    items[index].scrollIntoView({ block: 'nearest' });
  } else {
    input.removeAttribute('aria-activedescendant');
  }
}

function showList(list, input, open) {
  list.hidden = !open;
  input.setAttribute('aria-expanded', String(open));
  if (!open) input.removeAttribute('aria-activedescendant');
}

// Suggestion items are picked on click; mousedown must not take the focus
// from the input first (its blur closes the list).
const keepFocus = (event) => event.preventDefault();

function updateCommandSuggestions() {
  const text = ui.input.value;
  if (!text.startsWith('/')) {
    showList(ui.suggestions, ui.input, false);
    return;
  }
  const word = text.slice(1).split(/\s+/)[0].toLowerCase();
  const all = commands();
  composer.matches = [
    ...all.filter((c) => localized(c, 'name').startsWith(word)),
    ...all.filter((c) => !localized(c, 'name').startsWith(word) && localized(c, 'name').includes(word)),
  ];
  composer.active = composer.matches.length ? 0 : -1;
  ui.suggestions.replaceChildren(...(composer.matches.length
    ? composer.matches.map((c, i) => el('li', {
      class: 'command-suggestion', role: 'option', id: `command-suggestion-${i}`, 'data-command': c.name,
      onmousedown: keepFocus, onclick: () => chooseCommand(c),
    }, el('span', { class: 'suggestion-name', text: `/${localized(c, 'name')}` }),
    el('span', { class: 'suggestion-description', text: localized(c, 'description') })))
    : [el('li', { class: 'suggestion-empty', text: 'No command matches' })]));
  showList(ui.suggestions, ui.input, true);
  setActiveSuggestion(ui.suggestions, ui.input, composer.active);
}

function onInputKeydown(event) {
  const open = !ui.suggestions.hidden && composer.matches.length > 0;
  switch (event.key) {
    case 'ArrowDown':
    case 'ArrowUp':
      if (!open) return;
      event.preventDefault();
      composer.active = (composer.active + (event.key === 'ArrowDown' ? 1 : -1) + composer.matches.length)
        % composer.matches.length;
      setActiveSuggestion(ui.suggestions, ui.input, composer.active);
      return;
    case 'Tab':
      if (!open || event.shiftKey) return;
      event.preventDefault();
      chooseCommand(composer.matches[composer.active], ui.input.value);
      return;
    case 'Enter':
      if (event.isComposing) return;
      event.preventDefault();
      if (open) chooseCommand(composer.matches[composer.active], ui.input.value);
      else submitText();
      return;
    case 'Escape':
      if (ui.suggestions.hidden) return;
      event.preventDefault();
      showList(ui.suggestions, ui.input, false);
  }
}

// submitText handles Enter or Send in text mode: "/name [subcommand]"
// chooses the command.
function submitText() {
  const text = ui.input.value.trim();
  if (!text) return;
  if (!text.startsWith('/')) {
    showCommandError('The playground sends slash commands only: type / to pick one.');
    return;
  }
  const name = text.slice(1).split(/\s+/)[0];
  const cmd = commands().find((c) => localized(c, 'name') === name.toLowerCase());
  if (cmd) chooseCommand(cmd, text);
  else showCommandError(`Unknown command /${name}`);
}

// subcommandsOf lists a command's subcommands, those in groups included;
// shown is the path as the member's Discord names it.
function subcommandsOf(cmd) {
  const subs = [];
  for (const o of cmd.options ?? []) {
    if (o.type === OPT.SUBCOMMAND) subs.push({ path: [o.name], shown: localized(o, 'name'), option: o });
    if (o.type === OPT.GROUP) {
      for (const s of o.options ?? []) {
        if (s.type === OPT.SUBCOMMAND) {
          subs.push({ path: [o.name, s.name], shown: `${localized(o, 'name')} ${localized(s, 'name')}`, option: s });
        }
      }
    }
  }
  return subs;
}

// chooseCommand switches to form mode for cmd. typed is what was typed
// ("/privacy delete"), which may name the subcommand.
function chooseCommand(cmd, typed = '') {
  composer.command = cmd;
  composer.subcommands = subcommandsOf(cmd);
  showCommandError('');
  showList(ui.suggestions, ui.input, false);
  ui.input.hidden = true;
  ui.form.hidden = false;
  ui.chipName.textContent = `/${localized(cmd, 'name')}`;
  ui.fields.replaceChildren();
  composer.fields = [];
  composer.path = null;

  if (composer.subcommands.length === 0) {
    showOptionFields(cmd.options ?? []);
  } else {
    const words = typed.trim().split(/\s+/).slice(1).join(' ');
    const chosen = composer.subcommands.length === 1
      ? composer.subcommands[0]
      : composer.subcommands.find((s) => s.shown === words || s.path.join(' ') === words);
    const select = el('select', { id: 'subcommand-select', 'data-subcommand': '', 'aria-required': 'true' },
      el('option', { value: '', text: 'Choose…' }),
      ...composer.subcommands.map((s) => el('option', { value: s.path.join(' '), text: s.shown })));
    select.addEventListener('change', () => chooseSubcommand(select.value));
    ui.fields.append(el('div', { class: 'option-field' },
      el('label', { class: 'option-name', for: 'subcommand-select' }, 'subcommand', requiredMark()),
      select));
    if (chosen) {
      select.value = chosen.path.join(' ');
      chooseSubcommand(select.value);
    }
  }
  setHint(composerHint());
  const first = ui.fields.querySelector('select, input');
  (first ?? ui.send).focus();
}

function chooseSubcommand(pathText) {
  const sub = composer.subcommands.find((s) => s.path.join(' ') === pathText);
  composer.path = sub ? sub.path : null;
  for (const e of ui.fields.querySelectorAll('.option-field.command-option')) e.remove();
  composer.fields = [];
  if (sub) showOptionFields(sub.option.options ?? []);
  setHint(composerHint());
}

function composerHint() {
  const { command, subcommands, path, fields } = composer;
  if (subcommands.length > 0 && !path) return `${localized(command, 'description')} — choose a subcommand.`;
  const sub = subcommands.find((s) => s.path === path);
  const description = localized(sub ? sub.option : command, 'description');
  return fields.length === 0 ? `${description} — no options: press Enter to send.` : description;
}

function setHint(text) {
  ui.hint.textContent = text;
}

// blankText is the text of a select's "no value" entry.
function blankText(option) {
  return option.required ? 'Choose…' : '—';
}

function requiredMark() {
  return el('span', { class: 'required', title: 'required', text: '*' });
}

// showOptionFields adds one field per option, required ones first.
function showOptionFields(options) {
  const sorted = [...options.filter((o) => o.required), ...options.filter((o) => !o.required)];
  for (const option of sorted) {
    const field = makeField(option);
    composer.fields.push(field);
    ui.fields.append(field.wrapper);
  }
}

function makeField(option) {
  const id = `option-${option.name}`;
  // label and description are the option's as the member's Discord shows
  // them; the name sent is option.name.
  const label = localized(option, 'name');
  const description = localized(option, 'description');
  const field = { option, label, input: null, picked: null, ac: null, wrapper: null };
  let input;
  if (option.choices?.length) {
    input = el('select', {},
      el('option', { value: '', text: blankText(option) }),
      ...option.choices.map((c) => el('option', { value: String(c.value), text: localized(c, 'name') })));
  } else if (option.autocomplete) {
    input = el('input', { type: 'text', placeholder: description });
  } else {
    switch (option.type) {
      case OPT.USER:
      case OPT.MENTIONABLE:
        input = el('select', { class: 'member-options' });
        fillMemberSelect(input, '', blankText(option));
        break;
      case OPT.CHANNEL: {
        const ch = state.info.channel;
        input = el('select', {},
          el('option', { value: '', text: blankText(option) }),
          el('option', { value: ch.id, text: `#${ch.name}` }));
        break;
      }
      case OPT.BOOLEAN:
        input = el('input', { type: 'checkbox' });
        // An optional boolean starts unset (indeterminate); a click sets it.
        input.indeterminate = !option.required;
        break;
      case OPT.INTEGER:
        input = el('input', { type: 'number', step: '1', inputmode: 'numeric', placeholder: description });
        break;
      case OPT.NUMBER:
        input = el('input', { type: 'number', step: 'any', inputmode: 'decimal', placeholder: description });
        break;
      default: // string, role
        input = el('input', { type: 'text', placeholder: description });
    }
  }
  input.id = id;
  input.dataset.option = option.name;
  input.title = description;
  // A text or number field is as wide as its placeholder (the option's
  // description), which would otherwise be cut: "Adjacency rounds (2–28)",
  // not "Adjacency". The form wraps its fields onto more lines instead.
  if (input.placeholder) input.style.width = `${Math.min(input.placeholder.length + 4, 64)}ch`;
  if (option.required) input.setAttribute('aria-required', 'true');
  input.addEventListener('focus', () => setHint(`${label}${option.required ? ' (required)' : ''} — ${description}`));
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
  field.input = input;

  field.wrapper = el('div', { class: `option-field command-option${input.type === 'checkbox' ? ' checkbox-field' : ''}` },
    el('label', { class: 'option-name', for: id }, label, option.required && requiredMark()),
    input);
  if (option.autocomplete) attachAutocomplete(field);
  return field;
}

// fieldValue returns the value to send for a field: { set: false } when
// it is empty, { error } when it cannot be sent as its type.
function fieldValue(field) {
  const { option, label, input } = field;
  if (input.type === 'checkbox') {
    return input.indeterminate ? { set: false } : { set: true, value: input.checked };
  }
  if (field.picked) return { set: true, value: field.picked.value };
  if (input.validity.badInput) return { error: `${label} must be a number` };
  const text = input.value.trim();
  if (text === '') return { set: false };
  const choice = option.choices?.find((c) => String(c.value) === text);
  if (choice) return { set: true, value: choice.value };
  if (option.type === OPT.INTEGER || option.type === OPT.NUMBER) {
    const n = Number(text);
    if (!Number.isFinite(n) || (option.type === OPT.INTEGER && !Number.isInteger(n))) {
      return { error: `${label} must be ${option.type === OPT.INTEGER ? 'a whole number' : 'a number'}` };
    }
    return { set: true, value: n };
  }
  return { set: true, value: text };
}

// commandOptions returns the options to send: the set fields, with the
// focused one (for autocomplete) as typed, nested in the chosen subcommand.
function commandOptions(focused) {
  let options = [];
  for (const f of composer.fields) {
    if (f === focused) {
      options.push({ name: f.option.name, value: f.input.value, focused: true });
      continue;
    }
    const v = fieldValue(f);
    if (v.set) options.push({ name: f.option.name, value: v.value });
  }
  for (const name of [...(composer.path ?? [])].reverse()) options = [{ name, options }];
  return options;
}

/* ----- Autocomplete ----- */

function attachAutocomplete(field) {
  const { input } = field;
  const list = el('ul', {
    class: 'suggestions autocomplete-suggestions', role: 'listbox', id: `${input.id}-choices`,
    'aria-label': `Choices for ${field.label}`, hidden: true,
  });
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  field.ac = { list, choices: [], active: -1, timer: 0, seq: 0 };
  field.wrapper.append(list);

  input.addEventListener('input', () => {
    field.picked = null;
    requestChoices(field, AUTOCOMPLETE_DELAY_MS);
  });
  input.addEventListener('focus', () => requestChoices(field, 0));
  input.addEventListener('blur', () => {
    clearTimeout(field.ac.timer);
    field.ac.seq++; // drop an answer still on its way
    showList(list, input, false);
  });
  input.addEventListener('keydown', (event) => {
    const ac = field.ac;
    const open = !list.hidden && ac.choices.length > 0;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && open) {
      event.preventDefault();
      ac.active = (ac.active + (event.key === 'ArrowDown' ? 1 : -1) + ac.choices.length) % ac.choices.length;
      setActiveSuggestion(list, input, ac.active);
    } else if (event.key === 'Enter' && open && ac.active >= 0 && !event.isComposing) {
      event.preventDefault();
      event.stopPropagation(); // Enter picks here; it does not send
      pickChoice(field, ac.choices[ac.active]);
    } else if (event.key === 'Escape' && !list.hidden) {
      event.preventDefault();
      event.stopPropagation(); // Escape closes the list, not the command
      showList(list, input, false);
    }
  });
}

function requestChoices(field, delay) {
  clearTimeout(field.ac.timer);
  field.ac.timer = setTimeout(() => fetchChoices(field), delay);
}

// fetchChoices asks the bot for the choices of the focused field; only the
// answer to the latest request is shown.
async function fetchChoices(field) {
  const seq = ++field.ac.seq;
  // A newer request, a blur (which bumps seq) or a closed form makes the
  // answer moot.
  const current = () => seq === field.ac.seq && field.input.isConnected;
  let choices;
  try {
    const res = await api('/autocomplete', {
      member: state.member, name: composer.command.name, options: commandOptions(field),
    });
    choices = res?.choices ?? [];
  } catch (err) {
    if (current()) showChoices(field, [], `No choices: ${err.message}`);
    return;
  }
  if (current()) showChoices(field, choices, 'No choices match');
}

function showChoices(field, choices, emptyText) {
  const { list } = field.ac;
  field.ac.choices = choices;
  field.ac.active = choices.length ? 0 : -1;
  list.replaceChildren(...(choices.length
    ? choices.map((c, i) => el('li', {
      class: 'autocomplete-choice', role: 'option', id: `${list.id}-${i}`, 'data-value': String(c.value),
      onmousedown: keepFocus, onclick: () => pickChoice(field, c),
    }, c.name))
    : [el('li', { class: 'suggestion-empty', text: emptyText })]));
  showList(list, field.input, true);
  setActiveSuggestion(list, field.input, field.ac.active);
}

// pickChoice fills the field with a choice: its name is shown, its value
// is sent.
function pickChoice(field, choice) {
  field.picked = { name: choice.name, value: choice.value };
  field.input.value = choice.name;
  field.input.removeAttribute('aria-invalid');
  showList(field.ac.list, field.input, false);
}

/* ----- Sending ----- */

async function sendCommand() {
  if (!composer.command) {
    submitText();
    return;
  }
  if (composer.sending) return;
  if (composer.subcommands.length && !composer.path) {
    showCommandError('Choose a subcommand first.');
    $('subcommand-select').focus();
    return;
  }
  for (const f of composer.fields) {
    const v = fieldValue(f);
    const problem = v.error ?? (f.option.required && !v.set ? `Missing required option: ${f.label}` : '');
    if (problem) {
      showCommandError(problem);
      f.input.setAttribute('aria-invalid', 'true');
      f.input.focus();
      return;
    }
  }
  // aria-disabled rather than disabled: a disabled button would lose the
  // keyboard focus.
  composer.sending = true;
  ui.send.setAttribute('aria-disabled', 'true');
  ui.send.textContent = 'Sending…';
  showCommandError('');
  try {
    await api('/command', { member: state.member, name: composer.command.name, options: commandOptions(null) });
    resetComposer();
    scrollToBottom();
  } catch (err) {
    showCommandError(err.message);
  } finally {
    composer.sending = false;
    ui.send.removeAttribute('aria-disabled');
    ui.send.textContent = 'Send';
  }
}

// resetComposer returns to text mode with an empty input.
function resetComposer() {
  for (const f of composer.fields) clearTimeout(f.ac?.timer);
  Object.assign(composer, { command: null, subcommands: [], path: null, fields: [] });
  ui.fields.replaceChildren();
  ui.form.hidden = true;
  ui.input.hidden = false;
  ui.input.value = '';
  setHint('');
  showCommandError('');
  ui.input.focus();
}

// onComposerKeydown sends the command on Enter in form mode (Escape is
// handled on the document: the focus may have left the composer).
function onComposerKeydown(event) {
  // Text mode, or the Enter that chose the command bubbling up from the
  // input: onInputKeydown handles those.
  if (!composer.command || event.target === ui.input) return;
  if (event.key === 'Enter' && !event.isComposing && event.target.tagName !== 'BUTTON') {
    // Enter sends from any field, selects and checkboxes included.
    event.preventDefault();
    sendCommand();
  }
}

/* ---------- Start ---------- */

function bindUI() {
  ui.input.addEventListener('input', () => {
    showCommandError('');
    updateCommandSuggestions();
  });
  ui.input.addEventListener('focus', updateCommandSuggestions);
  ui.input.addEventListener('blur', () => showList(ui.suggestions, ui.input, false));
  ui.input.addEventListener('keydown', onInputKeydown);
  ui.composer.addEventListener('keydown', onComposerKeydown);
  ui.composer.addEventListener('submit', (event) => {
    event.preventDefault();
    sendCommand();
  });
  ui.cancel.addEventListener('click', resetComposer);
  ui.memberSelect.addEventListener('change', () => selectMember(ui.memberSelect.value));
  ui.memberLocale.addEventListener('change', () => setLocale(ui.memberLocale, { member: state.member }));
  ui.serverLocale.addEventListener('change', () => setLocale(ui.serverLocale, { guild: state.info.guild.id }));
  ui.addMember.addEventListener('click', addMember);
  ui.membersButton.addEventListener('click', () => openMemberMenu(ui.membersButton, state.info.members ?? []));
  // A member's name or mention opens their menu, as a click or right-click
  // on a name does in Discord.
  for (const type of ['click', 'contextmenu']) {
    ui.messages.addEventListener(type, (event) => {
      const name = event.target.closest('[data-user-id]');
      const member = name && state.info.members?.find((m) => m.id === name.dataset.userId);
      if (!member) return;
      event.preventDefault();
      openMemberMenu(name, [member]);
    });
  }
  document.addEventListener('mousedown', (event) => {
    if (!ui.memberMenu.hidden && !ui.memberMenu.contains(event.target) && event.target !== ui.membersButton) closeMemberMenu();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !ui.memberMenu.hidden) {
      event.preventDefault();
      closeMemberMenu();
      return;
    }
    // Escape cancels a command being filled in (autocomplete lists close
    // first: they stop the event).
    if (event.key === 'Escape' && composer.command && !event.defaultPrevented) {
      event.preventDefault();
      resetComposer();
      return;
    }
    // "/" anywhere outside a field starts a command, as in Discord.
    if (event.key !== '/' || composer.command || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest('input, select, textarea, [contenteditable]')) return;
    event.preventDefault();
    ui.input.value = '/';
    ui.input.focus();
    updateCommandSuggestions();
  });
  setInterval(refreshRelativeTimes, RELATIVE_REFRESH_MS);
  // A list scrolled to the bottom stays there when it shrinks (the
  // composer grows with a command's fields) and when its messages grow
  // (a picture loads after the message was drawn: follow).
  // Only the member unpins it, by scrolling up: the scroll event of the
  // page's own scroll to the bottom may come after a picture grew the
  // list, when the list is no longer at the bottom, and must not unpin
  // it (the growth's resize observer then follows).
  let lastTop = ui.messages.scrollTop;
  ui.messages.addEventListener('scroll', () => {
    const top = ui.messages.scrollTop;
    if (top < lastTop) pinned = atBottom();
    else if (atBottom()) pinned = true;
    lastTop = top;
  });
  growth.observe(ui.messages);
}

// start loads the state, retrying until the server answers.
async function start() {
  bindUI();
  for (;;) {
    try {
      const info = await api('/state');
      showCommandError('');
      begin(info);
      return;
    } catch (err) {
      setConnection(false, err.message);
      showCommandError(`Cannot load the playground: ${err.message}. Retrying…`);
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }
}

// begin shows the channel as the remembered member, or the first one.
function begin(info) {
  applyState(info);
  let saved = null;
  try {
    saved = localStorage.getItem(MEMBER_KEY);
  } catch {
    // No storage: start with the first member.
  }
  const members = info.members ?? [];
  const member = members.find((m) => m.id === saved) ?? members[0];
  if (member) selectMember(member.id);
  else showCommandError('The playground has no members: add one with "Add member".');
}

start();
