/**
 * Drives HTML forms as a person does, by accessible names: a form by its name (aria-label,
 * aria-labelledby), fields by their label text, a button by its text. Hidden fields and ticked
 * checkboxes go along, as a browser sends them. Throws when a name matches nothing or several.
 */
import { parseHtml, type Html } from "./html";

type Node = ReturnType<Html>;

function text(node: Node): string {
  return node.text().replace(/\s+/g, " ").trim();
}

/** The accessible name of a form: aria-label, or the text of its aria-labelledby element. */
function formName($: Html, form: Node): string {
  const label = form.attr("aria-label");
  if (label) return label.trim();
  const by = form.attr("aria-labelledby");
  return by ? text($(`#${by}`)) : "";
}

export function findForm($: Html, name: string): Node {
  const forms = $("form").filter((_, el) => formName($, $(el)) === name);
  if (forms.length !== 1) throw new Error(`expected one form named ${JSON.stringify(name)}, found ${forms.length}`);
  return forms.first();
}

/** The control a label names: the one inside it, or the one its `for` points at. */
function controlOf($: Html, form: Node, labelText: string): Node {
  const labels = form.find("label").filter((_, el) => {
    const clone = $(el).clone();
    clone.find("input, select, textarea").remove();
    return text(clone) === labelText;
  });
  if (labels.length !== 1) throw new Error(`expected one field labelled ${JSON.stringify(labelText)}, found ${labels.length}`);
  const label = labels.first();
  const inner = label.find("input, select, textarea").first();
  if (inner.length) return inner;
  const id = label.attr("for");
  const target = id ? form.find(`#${id}`) : null;
  if (!target?.length) throw new Error(`label ${JSON.stringify(labelText)} names no control`);
  return target;
}

export interface FilledForm {
  action: string;
  method: string;
  fields: Record<string, string>;
}

/**
 * Fills form `formName` of `html`: `values` by label (a checkbox takes true/false), then presses
 * the button `button` (it must be in the form).
 */
export function fillForm(html: string, formName: string, values: Record<string, string | boolean>, button: string): FilledForm {
  const $ = parseHtml(html);
  const form = findForm($, formName);
  const fields: Record<string, string> = {};
  form.find("input").each((_, el) => {
    const input = $(el);
    const name = input.attr("name");
    if (!name) return;
    const type = (input.attr("type") ?? "text").toLowerCase();
    if (type === "checkbox" || type === "radio") {
      if (input.attr("checked") !== undefined) fields[name] = input.attr("value") ?? "on";
    } else if (type !== "submit") {
      fields[name] = input.attr("value") ?? "";
    }
  });
  for (const [label, value] of Object.entries(values)) {
    const control = controlOf($, form, label);
    const name = control.attr("name");
    if (!name) throw new Error(`field ${JSON.stringify(label)} has no name`);
    if ((control.attr("type") ?? "").toLowerCase() === "checkbox") {
      if (value === true) fields[name] = control.attr("value") ?? "on";
      else delete fields[name];
    } else {
      fields[name] = String(value);
    }
  }
  const buttons = form.find("button, input[type=submit]").filter((_, el) => (text($(el)) || $(el).attr("value")) === button);
  if (buttons.length !== 1) throw new Error(`expected one button ${JSON.stringify(button)} in ${JSON.stringify(formName)}, found ${buttons.length}`);
  const pressed = buttons.first();
  if (pressed.attr("name")) fields[pressed.attr("name")!] = pressed.attr("value") ?? "";
  return { action: form.attr("action") ?? "", method: (form.attr("method") ?? "get").toLowerCase(), fields };
}

/** The href of the one link whose text is `name` (inside `within`, a CSS selector, when given). */
export function linkHref(html: string, name: string, within?: string): string {
  const $ = parseHtml(html);
  const scope = within ? $(within) : $.root();
  const links = scope.find("a").filter((_, el) => text($(el)) === name);
  if (links.length !== 1) throw new Error(`expected one link ${JSON.stringify(name)}, found ${links.length}`);
  return links.first().attr("href") ?? "";
}

/** The text of the page's alert (role=alert), or null. */
export function alertText(html: string): string | null {
  const $ = parseHtml(html);
  const alert = $('[role="alert"]').first();
  return alert.length ? text(alert) : null;
}

/** The text of the page's status message (role=status), or null. */
export function statusText(html: string): string | null {
  const $ = parseHtml(html);
  const status = $('[role="status"]').first();
  return status.length ? text(status) : null;
}
