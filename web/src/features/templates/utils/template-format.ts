import type { ItemKind, TemplateItem, TemplateStatus, TemplateSummary } from '@schemas/templates';

export const itemKindLabels: Record<ItemKind, string> = {
  pass_fail: 'Pass / fail',
  yes_no: 'Yes / no',
  number: 'Number',
  text: 'Text',
  single_choice: 'Single choice',
  multi_choice: 'Multiple choice',
  date: 'Date',
  photo: 'Photo',
  signature: 'Signature',
};

/** What an inspector does with an item of each kind, shown in the editor under the kind. */
export const itemKindDescriptions: Record<ItemKind, string> = {
  pass_fail: 'Answered pass, fail or n/a. Fail fails the item.',
  yes_no: 'Answered yes or no. Choose which answer fails the item, if any.',
  number: 'Answered with a number. A number outside the range fails the item.',
  text: 'Answered with free text. Not scored.',
  single_choice: 'One option is chosen. Mark the options that fail the item.',
  multi_choice: 'Any number of options are chosen. Choosing a failing option fails the item.',
  date: 'Answered with a date. Not scored.',
  photo: 'Answered with photos taken or chosen on site. Not scored.',
  signature: 'Signed on the screen with the signer’s name. Not scored.',
};

export const statusLabels: Record<TemplateStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
};

export function itemCountText(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

/** "Version 3", or that nothing was published yet. */
export function versionText(template: Pick<TemplateSummary, 'latest_version'>): string {
  return template.latest_version === null ? 'Not published yet' : `Version ${template.latest_version}`;
}

/** One line of an item's settings for the read-only view: "10–40 °C", "Fails on: Dirty". */
export function itemSettingsText(item: TemplateItem): string | null {
  switch (item.kind) {
    case 'yes_no':
      return item.fail_on ? `Fails when answered ${item.fail_on}` : null;
    case 'number': {
      const unit = item.unit ? ` ${item.unit}` : '';
      if (item.min !== null && item.max !== null) return `Passes from ${item.min} to ${item.max}${unit}`;
      if (item.min !== null) return `Passes from ${item.min}${unit}`;
      if (item.max !== null) return `Passes up to ${item.max}${unit}`;
      return item.unit ? `In ${item.unit}` : null;
    }
    case 'single_choice':
    case 'multi_choice':
      return null;
    case 'photo':
      return `Up to ${item.max_photos} ${item.max_photos === 1 ? 'photo' : 'photos'}`;
    default:
      return null;
  }
}
