import { useId, type ReactNode } from 'react';
import { useField } from '@/components/ui/use-field';
import { checkState, type GroupNode, type GroupTree } from '../utils/group-tree';
import './site-groups.css';

/** Which sites a member or a key sees: every one, or those in the chosen groups and below them. */
export interface SiteAccessChoice {
  limited: boolean;
  /** The ticked groups (a subgroup of a ticked group is included without being ticked). */
  groupIds: string[];
}

export const EVERY_SITE: SiteAccessChoice = { limited: false, groupIds: [] };

interface SiteAccessFieldProps {
  /** "Sites Ada sees", "Sites the key sees". */
  legend: string;
  /** The form field the api names in its errors (`site_group_ids`). */
  name: string;
  tree: GroupTree | undefined;
  value: SiteAccessChoice;
  onChange: (value: SiteAccessChoice) => void;
  error?: string;
  /** Said when the organization has no group to choose: where to make one. */
  noGroups: ReactNode;
}

/** Two choices — every site, or only chosen groups — and the groups as a tree of checkboxes. */
export function SiteAccessField({ legend, name, tree, value, onChange, error, noGroups }: SiteAccessFieldProps) {
  const field = useField(undefined, error);
  const hasGroups = (tree?.roots.length ?? 0) > 0;
  return (
    <fieldset className="fieldset site-access" aria-describedby={field.controlProps['aria-describedby']}>
      <legend>{legend}</legend>
      {/* Names the field in the form, so that the api's message about site_group_ids is shown here. */}
      <input type="hidden" name={name} value={value.limited ? value.groupIds.join(',') : ''} />
      <div className="checkbox-row">
        <input
          type="radio"
          id={`${field.controlProps.id}-all`}
          name={`${name}-scope`}
          data-field={name}
          checked={!value.limited}
          onChange={() => onChange({ ...value, limited: false })}
        />
        <label htmlFor={`${field.controlProps.id}-all`}>Every site in the organization</label>
      </div>
      <div className="checkbox-row">
        <input
          type="radio"
          id={`${field.controlProps.id}-groups`}
          name={`${name}-scope`}
          data-field={name}
          checked={value.limited}
          disabled={!hasGroups && !value.limited}
          onChange={() => onChange({ ...value, limited: true })}
        />
        <label htmlFor={`${field.controlProps.id}-groups`}>Only sites in these groups</label>
      </div>
      {!hasGroups ? <div className="field-hint">{noGroups}</div> : null}
      {value.limited && tree && hasGroups ? (
        <GroupCheckboxTree tree={tree} name={name} chosen={value.groupIds} onChange={(groupIds) => onChange({ limited: true, groupIds })} label={legend} />
      ) : null}
      {field.error}
    </fieldset>
  );
}

interface GroupCheckboxTreeProps {
  tree: GroupTree;
  name: string;
  chosen: string[];
  onChange: (chosen: string[]) => void;
  label: string;
}

/** The groups as nested lists of checkboxes; a group under a ticked one shows as included. */
function GroupCheckboxTree({ tree, name, chosen, onChange, label }: GroupCheckboxTreeProps) {
  const prefix = useId();
  const set = new Set(chosen);
  const toggle = (groupId: string, on: boolean) => onChange(on ? [...chosen, groupId] : chosen.filter((id) => id !== groupId));
  const renderNodes = (nodes: GroupNode[]): ReactNode => (
    <ul className="group-checkboxes">
      {nodes.map((node) => {
        const state = checkState(tree, set, node.group.id);
        const id = `${prefix}-${node.group.id}`;
        return (
          <li key={node.group.id}>
            <div className="checkbox-row">
              <input
                type="checkbox"
                id={id}
                data-field={name}
                checked={state !== 'none'}
                disabled={state === 'included'}
                onChange={(event) => toggle(node.group.id, event.target.checked)}
              />
              <label htmlFor={id}>
                {node.group.name}
                <span className="muted-inline">
                  {' '}
                  {state === 'included' ? '(included)' : `· ${node.totalSites} ${node.totalSites === 1 ? 'site' : 'sites'}`}
                </span>
              </label>
            </div>
            {node.children.length > 0 ? renderNodes(node.children) : null}
          </li>
        );
      })}
    </ul>
  );
  return (
    <div role="group" aria-label={`${label}: groups`} className="group-checkbox-tree">
      {renderNodes(tree.roots)}
    </div>
  );
}
