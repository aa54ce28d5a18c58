// The yes/no picker for showing images inline in the terminal.
import { Container } from "../../pi-tui/components/container.js";
import { SelectList } from "../../pi-tui/components/select-list.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { getSelectListTheme } from "../ui/theme.js";

const LIST_LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };

export class ShowImagesSelectorComponent extends Container {
  constructor(currentValue, onSelect, onCancel) {
    super();
    const items = [
      { value: "yes", label: "Yes", description: "Show images inline in terminal" },
      { value: "no", label: "No", description: "Show text placeholder instead" },
    ];
    this.addChild(new DynamicBorder());
    this.selectList = new SelectList(items, 5, getSelectListTheme(), LIST_LAYOUT);
    this.selectList.setSelectedIndex(currentValue ? 0 : 1);
    this.selectList.onSelect = (item) => onSelect(item.value === "yes");
    this.selectList.onCancel = () => onCancel();
    this.addChild(this.selectList);
    this.addChild(new DynamicBorder());
  }

  getSelectList() {
    return this.selectList;
  }
}
