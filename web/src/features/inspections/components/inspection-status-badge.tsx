import { STATUS_LABELS, type InspectionStatus } from '@schemas/inspection-states';
import './inspections.css';

export function InspectionStatusBadge({ status }: { status: InspectionStatus }) {
  return <span className={`status-badge status-${status}`}>{STATUS_LABELS[status]}</span>;
}

export function OverdueBadge() {
  return <span className="status-badge status-overdue">Overdue</span>;
}
