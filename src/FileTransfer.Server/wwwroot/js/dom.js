// Builds elements from text only: there is no HTML string anywhere in the page, so a file name,
// a server message or a key can never become markup (and the page's Trusted Types policy makes
// every HTML sink throw anyway).

/**
 * h('a', { href: 'x', class: 'name' }, 'text', child) — attributes are set with setAttribute,
 * children are nodes or strings (strings become text nodes); null and false children are skipped.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces every child of parent with children. */
export function replaceChildren(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** Text that screen readers read but the eye does not see, e.g. the file a row's "Delete" acts on. */
export function hidden(text) {
  return h('span', { class: 'visually-hidden' }, text);
}

export const byId = (id) => document.getElementById(id);
