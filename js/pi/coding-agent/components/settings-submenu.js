// The submenus of /settings: a titled select list (optionally filtered as
// the user types), and a run of such lists where each step's choices
// depend on the ones before (Escape goes back a step).
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { SelectList } from "../../pi-tui/components/select-list.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { fuzzyFilter } from "../../pi-tui/fuzzy.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { currentTheme, getSelectListTheme } from "../ui/theme.js";

const DEFAULT_LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };
const MAX_VISIBLE = 10;
// Keys that move in or leave the list even while a filter is being typed.
const LIST_KEYS = ["tui.select.up", "tui.select.down", "tui.select.pageUp", "tui.select.pageDown", "tui.select.confirm", "tui.select.cancel"];

export class SelectSubmenu extends Container {
  constructor(title, description, options, currentValue, onSelect, onCancel, onSelectionChange, submenuOptions) {
    super();
    const theme = currentTheme();
    this.allOptions = options;
    this.listLayout = submenuOptions?.layout ?? DEFAULT_LAYOUT;
    this.onSelectCb = onSelect;
    this.onCancelCb = onCancel;
    this.onSelectionChangeCb = onSelectionChange;
    this.searchInput = undefined;
    const searchable = Boolean(submenuOptions?.searchable);
    this.addChild(new Text(theme.bold(theme.fg("accent", title)), 0, 0));
    if (description) {
      this.addChild(new Spacer(1));
      this.addChild(new Text(theme.fg("muted", description), 0, 0));
    }
    if (searchable) {
      this.addChild(new Spacer(1));
      this.searchInput = new Input();
      // Enter in the filter takes the highlighted option.
      this.searchInput.onSubmit = () => this.selectList.handleInput("\r");
      this.addChild(this.searchInput);
    }
    this.addChild(new Spacer(1));
    this.selectList = this.buildSelectList(options, currentValue);
    this.listChildIndex = this.children.length;
    this.addChild(this.selectList);
    this.addChild(new Spacer(1));
    const hint = searchable ? "  Type to filter · Enter to select · Esc to go back" : "  Enter to select · Esc to go back";
    this.addChild(new Text(theme.fg("dim", hint), 0, 0));
  }

  buildSelectList(options, preselect) {
    const list = new SelectList(options, Math.min(options.length, MAX_VISIBLE), getSelectListTheme(), this.listLayout);
    const index = options.findIndex((option) => option.value === preselect);
    if (index !== -1) list.setSelectedIndex(index);
    list.onSelect = (item) => this.onSelectCb(item.value);
    list.onCancel = this.onCancelCb;
    const onChange = this.onSelectionChangeCb;
    if (onChange) list.onSelectionChange = (item) => onChange(item.value);
    return list;
  }

  applyFilter(query) {
    const options = query ? fuzzyFilter(this.allOptions, query, (item) => `${item.label} ${item.description ?? ""}`) : this.allOptions;
    this.selectList = this.buildSelectList(options, "");
    this.children[this.listChildIndex] = this.selectList;
  }

  handleInput(data) {
    if (!this.searchInput) {
      this.selectList.handleInput(data);
      return;
    }
    const keys = getKeybindings();
    if (LIST_KEYS.some((id) => keys.matches(data, id))) {
      this.selectList.handleInput(data);
      return;
    }
    // Only a changed filter rebuilds the list: cursor keys in the input keep the selection.
    const before = this.searchInput.getValue();
    this.searchInput.handleInput(data);
    const query = this.searchInput.getValue();
    if (query !== before) this.applyFilter(query);
  }
}

/**
 * Steps of SelectSubmenus sharing a context of the choices made so far
 * (`context[step.key]`). Finishing the last step reports the context, then
 * starts over with `loop`, or closes.
 */
export class SteppedSubmenu extends Container {
  constructor(steps, onComplete, onCancel, opts = {}) {
    super();
    this.steps = steps;
    this.onComplete = onComplete;
    this.onCancel = onCancel;
    this.opts = opts;
    this.context = { ...(opts.initialContext ?? {}) };
    this.activeComponent = this.buildStep(opts.startAtStep ?? 0);
  }

  buildStep(stepIndex) {
    const step = this.steps[stepIndex];
    const total = this.steps.length;
    const valueOf = (field) => (typeof field === "function" ? field(this.context) : field);
    const stepLabel = total > 1 ? `Step ${stepIndex + 1}/${total} · ` : "";
    const onSelect = (value) => {
      this.context[step.key] = value;
      if (stepIndex < total - 1) {
        this.activeComponent = this.buildStep(stepIndex + 1);
        return;
      }
      this.onComplete({ ...this.context });
      if (this.opts.loop) {
        this.context = {};
        this.activeComponent = this.buildStep(0);
      } else this.onCancel();
    };
    const onBack = () => {
      if (stepIndex === 0) {
        this.onCancel();
        return;
      }
      delete this.context[step.key];
      this.activeComponent = this.buildStep(stepIndex - 1);
    };
    const listOptions = step.searchable || step.layout ? { searchable: step.searchable, layout: step.layout } : undefined;
    // Asked in this order, as pi asks them: a step's functions may build on one another.
    const title = valueOf(step.title);
    const description = valueOf(step.description);
    const options = step.options(this.context);
    const preselect = step.preselect?.(this.context) ?? "";
    return new SelectSubmenu(title, `${stepLabel}${description}`, options, preselect, onSelect, onBack, undefined, listOptions);
  }

  render(width) {
    return this.activeComponent.render(width);
  }

  handleInput(data) {
    this.activeComponent.handleInput?.(data);
  }

  invalidate() {
    this.activeComponent.invalidate?.();
  }
}
