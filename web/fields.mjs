// The lobby is drawn anew for every message (a table listed, a chat line): what the player has
// typed or chosen in its forms, and where the cursor was, must survive that. Each field is known
// by its form's class and its name; only in memory, for the next drawing.

function fieldKey(field) {
  return field.form && field.name ? `${field.form.className}/${field.name}` : null;
}

function changed(field) {
  if (field.type === "checkbox") return field.checked !== field.defaultChecked;
  if (field.tagName === "SELECT") return [...field.options].some((o) => o.selected !== o.defaultSelected);
  return field.value !== field.defaultValue;
}

export function typedFields(main) {
  const kept = { values: new Map(), focus: null, selection: null };
  for (const field of main.querySelectorAll("form input, form select")) {
    const key = fieldKey(field);
    if (!key) continue;
    // only what the player changed: a field left as drawn shows what the next drawing says
    if (changed(field)) kept.values.set(key, field.type === "checkbox" ? field.checked : field.value);
    if (field === document.activeElement) {
      kept.focus = key;
      if (field.type === "text" || field.type === "password") {
        kept.selection = [field.selectionStart, field.selectionEnd];
      }
    }
  }
  return kept;
}

export function restoreFields(main, kept) {
  for (const field of main.querySelectorAll("form input, form select")) {
    const key = fieldKey(field);
    if (!key) continue;
    if (kept.values.has(key)) {
      const value = kept.values.get(key);
      if (field.type === "checkbox") field.checked = value;
      else field.value = value;
    }
    if (key === kept.focus) {
      field.focus();
      if (kept.selection) field.setSelectionRange(...kept.selection);
    }
  }
}
