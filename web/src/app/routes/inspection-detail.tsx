import { idSchema } from '@schemas/common';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { Link, useParams } from 'react-router-dom';
import { ContentLayout } from '../../components/layouts/content-layout';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingScreen } from '../../components/ui/loading-screen';
import { useInspection } from '../../features/inspections/api/get-inspection';
import { InspectionRun } from '../../features/inspections/components/inspection-run';
import { useMe } from '../../features/profile/api/get-me';
import { describeError } from '../../lib/errors';
import { useOrgRoute } from '../org-context';

const inspectionNotFound = formatWording(errorCatalogue.not_found.title, { thing: 'inspection' });

/** `/o/:org/inspections/:inspectionId`: the run page (answer, submit) and the review page. */
export function InspectionDetailRoute() {
  const { inspectionId = '' } = useParams();
  const validId = idSchema.safeParse(inspectionId).success;
  return validId ? <InspectionDetail inspectionId={inspectionId} /> : <InspectionNotFound />;
}

function InspectionNotFound() {
  const { membership } = useOrgRoute();
  return (
    <ContentLayout title={inspectionNotFound} description={membership.org_name}>
      <Link to={`/o/${membership.org_slug}/inspections`}>Back to inspections</Link>
    </ContentLayout>
  );
}

function InspectionDetail({ inspectionId }: { inspectionId: string }) {
  const { membership, userId } = useOrgRoute();
  const me = useMe();
  const inspection = useInspection(membership.org_id, inspectionId);

  if (inspection.isPending) return <LoadingScreen />;
  if (inspection.isError) {
    const failure = describeError(inspection.error);
    if (failure.code === 'not_found') return <InspectionNotFound />;
    return (
      <ContentLayout title="Inspection" description={membership.org_name}>
        <FormAlert message={failure.message} />
      </ContentLayout>
    );
  }

  return (
    <ContentLayout title={inspection.data.title} description={membership.org_name}>
      <InspectionRun
        key={inspection.data.id}
        orgId={membership.org_id}
        orgSlug={membership.org_slug}
        userId={userId}
        displayName={me.data?.display_name || me.data?.email || 'A member'}
        role={membership.role}
        inspection={inspection.data}
      />
      <p>
        <Link to={`/o/${membership.org_slug}/inspections`}>Back to inspections</Link>
      </p>
    </ContentLayout>
  );
}
