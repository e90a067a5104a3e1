/** The worked example of workflow-format.md §1.2, as written there: invoice approval. */
export const invoiceApproval = `document:
  dsl: '1.0.3'
  namespace: finance
  name: invoice-approval
  version: '1.2.0'
  title: Invoice approval
  summary: Assesses an invoice, asks for a decision when needed and records the outcome.
evaluate:
  language: typescript
  mode: strict
input:
  schema:
    document:
      type: object
      required: [invoice]
      properties:
        invoice:
          type: object
          required: [number, amount_cents, supplier]
          properties: { number: { type: string }, amount_cents: { type: integer }, supplier: { type: string } }
  from: '\${ ({ invoice: $data.invoice, received: new Date().toISOString() }) }'
output:
  as: '\${ ({ number: $data.number, status: $data.status, note: $data.note ?? null }) }'
  schema:
    document:
      type: object
      properties: { number: { type: string }, status: { enum: [approved, rejected, escalated] }, note: { type: [string, 'null'] } }
timeout:
  after: P14D
use:
  errors:
    not-payable:
      type: https://example.com/errors/invoice-not-payable
      status: 422
      title: The invoice cannot be paid
    assessment-unavailable:
      type: https://example.com/errors/assessment-unavailable
      status: 503
      title: The invoice could not be assessed
  retries:
    model-busy:
      delay: { seconds: 10 }
      backoff: { exponential: {} }
      jitter: { from: { seconds: 0 }, to: { seconds: 2 } }
      limit:
        attempt: { count: 4, duration: PT2M }
        duration: PT10M
  timeouts:
    one-week: { after: { days: 7 } }
do:
  - check:
      try:
        - assess:
            call: run_definition
            with:
              type: reasoning
              name: assess-invoice
              input:
                invoice: \${ $data.invoice }
      catch:
        errors:
          with:
            type: https://open-workflow-specification.org/spec/1.0.0/errors/communication
        retry: model-busy
        do:
          - give-up:
              raise:
                error: assessment-unavailable
      output:
        as: '\${ ({ ...$input, assessment: $data }) }'
      export:
        as: '\${ ({ ...$context, risk: $output.assessment.risk }) }'
  - stop-if-unpayable:
      if: $data.assessment.payable === false
      raise:
        error: not-payable
  - route:
      switch:
        - small-and-safe:
            when: $data.invoice.amount_cents < 500000 && $context.risk === "low"
            then: auto-approve
        - otherwise:
            then: ask
  - ask:
      try:
        - wait-for-decision:
            listen:
              to:
                one:
                  with:
                    type: com.example.invoice.decided
                    data: '\${ typeof $data.approved === "boolean" }'
            timeout: one-week
            output:
              as: '\${ $data[0] }'
      catch:
        as: failure
        errors:
          with: { status: 408 }
        do:
          - no-decision:
              set:
                approved: null
                note: '\${ \`No decision for \${$input.invoice.number} (\${$failure.title})\` }'
      output:
        as: '\${ ({ ...$input, decision: $data }) }'
  - judge:
      switch:
        - approved-case:
            when: $data.decision.approved === true
            then: approved
        - rejected-case:
            when: $data.decision.approved === false
            then: rejected
        - undecided:
            then: escalated
  - escalated:
      set:
        number: \${ $data.invoice.number }
        status: escalated
        note: \${ $data.decision.note }
      then: end
  - rejected:
      set:
        number: \${ $data.invoice.number }
        status: rejected
        note: \${ $data.decision.reason }
      then: end
  - auto-approve:
      set:
        number: \${ $data.invoice.number }
        status: approved
        note: Approved without review
      then: announce
  - approved:
      set:
        number: \${ $data.invoice.number }
        status: approved
        note: \${ $data.decision.reason }
  - announce:
      emit:
        event:
          with:
            type: com.example.invoice.approved
            source: https://example.com/finance
            subject: \${ $data.number }
            data: { number: '\${ $data.number }' }
`
