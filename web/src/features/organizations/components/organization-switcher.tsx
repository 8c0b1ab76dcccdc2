import type { Membership } from '@schemas/profile';
import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { roleLabel } from '@/lib/roles';

interface OrganizationSwitcherProps {
  memberships: Membership[];
  /** Slug of the organization the page belongs to, if any. */
  currentSlug?: string;
}

/** The header's disclosure: the current organization's name, opening a list of the user's others. */
export function OrganizationSwitcher({ memberships, currentSlug }: OrganizationSwitcherProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const current = memberships.find((membership) => membership.org_slug === currentSlug);

  useEffect(() => {
    if (!open) return;
    function closeOnOutsideClick(event: MouseEvent) {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    }
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    }
    document.addEventListener('mousedown', closeOnOutsideClick);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOnOutsideClick);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div className="switcher" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="switcher-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="visually-hidden">Organization: </span>
        <span className="switcher-name">{current ? current.org_name : 'Choose an organization'}</span>
        <ChevronDown aria-hidden="true" size={18} />
      </button>
      {open ? (
        <div className="switcher-panel" id={menuId}>
          {memberships.length > 0 ? (
            <ul aria-label="Your organizations">
              {memberships.map((membership) => (
                <li key={membership.org_id}>
                  <Link
                    to={`/o/${membership.org_slug}`}
                    aria-current={membership.org_slug === currentSlug ? 'true' : undefined}
                    onClick={() => setOpen(false)}
                  >
                    <span>{membership.org_name}</span>
                    <span className="muted">{roleLabel(membership.role)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted switcher-empty">No organizations yet.</p>
          )}
          <div className="switcher-footer">
            <Link to="/orgs" onClick={() => setOpen(false)}>
              All organizations
            </Link>
            <Link to="/orgs#create-organization" onClick={() => setOpen(false)}>
              Create organization
            </Link>
          </div>
        </div>
      ) : null}
    </div>
  );
}
