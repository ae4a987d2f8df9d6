import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as intakes from '../intakes.ts';
import { write } from './access.ts';
import { IntakeAnswer, NewAnimalIntake } from '../schemas.ts';

/** /api/animals/intakes: a new animal and its first intake at once (the intake screen). */
export function newAnimalIntakeRoutes(app: App, ctx: AppContext) {
  const tags = ['Animal stays'];
  app.post(
    '/api/animals/intakes',
    {
      config: write,
      schema: {
        tags,
        summary: 'Take in a new animal (the animal and its first intake at once)',
        description:
          "Answers 201 with `animal` (as GET /api/animals/{id}/details) and `stay` (its open stay). The intake screen's one " +
          'request: the animal (name, species, breed text, sex, colour, date of birth, microchip, place, custom fields) and its ' +
          'intake (when, type and subtype, the person, partner or outside organization it came from, where it was found, its ' +
          'condition, its age at intake) are written in one transaction, so nothing is kept when any part is refused (422 names ' +
          'the field). The intake follows every rule of POST /api/animals/{id}/intakes: the type is a Shelter Animals Count ' +
          "intake category and defaults to the subtype's (one of the two is needed: 400), so a stray taken in here is " +
          "counted as stray by the reports; the animal's status starts as `status` (default: the first configured status) and " +
          "moves as the organization's status mapping says for the type. The record's intake date is `occurred_at`'s day in the " +
          "organization's time zone; `occurred_at` may not be in the future. A chip already on another animal is kept (as " +
          'POST /api/v1/animals keeps it); the staff app looks the number up in the registry before saving. A Family A create ' +
          '(POST /api/v1/animals) opens a first stay of type `other` instead.',
        body: NewAnimalIntake,
        response: { 201: IntakeAnswer },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await intakes.intakeNewAnimal(ctx.db, orgId, req.body, actor, org.time_zone));
    },
  );
}
