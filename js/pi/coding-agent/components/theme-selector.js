// The /theme picker: every theme pi knows by name, the current one marked,
// each move announced so the caller can preview it.
import { Container } from "../../pi-tui/components/container.js";
import { SelectList } from "../../pi-tui/components/select-list.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { getSelectListTheme } from "../ui/theme.js";
import { getAvailableThemes } from "../ui/theme-names.js";

const VISIBLE_ROWS = 10;
const LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };

export class ThemeSelectorComponent extends Container {
  constructor(currentTheme, onSelect, onCancel, onPreview) {
    super();
    this.onPreview = onPreview;
    const names = getAvailableThemes();
    const items = names.map((name) => ({ value: name, label: name, description: name === currentTheme ? "(current)" : undefined }));
    this.addChild(new DynamicBorder());
    this.selectList = new SelectList(items, VISIBLE_ROWS, getSelectListTheme(), LAYOUT);
    const currentIndex = names.indexOf(currentTheme);
    if (currentIndex !== -1) this.selectList.setSelectedIndex(currentIndex);
    this.selectList.onSelect = (item) => onSelect(item.value);
    this.selectList.onCancel = () => onCancel();
    this.selectList.onSelectionChange = (item) => this.onPreview(item.value);
    this.addChild(this.selectList);
    this.addChild(new DynamicBorder());
  }

  getSelectList() {
    return this.selectList;
  }
}
