import type { SpecLanguageModel, SpecMessage } from '../ai-sdk/language-model-spec.js'
import type { LoopInput, LoopSettings } from '../loop/loop-input.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { convertProviderFormPrompt } from './convert-provider-form-prompt.js'
import { type ApprovalAnswers, findApprovalAnswers } from './provider-form-approvals.js'
import type { CallerOptions, ProviderFormTransport, WrappedModel } from './provider-form-transport.js'

/** One call of a model wrapped by `withToolkit`: what the wrapper knows, and what this call brings. */
export interface WrappedCall {
  inner: SpecLanguageModel
  /** What the wrapper works out once about `inner`. */
  wrappedModel: WrappedModel
  toolkit: Toolkit
  settings: LoopSettings<SpecMessage>
  callOptions: CallerOptions
  /** The names of the caller's own tools: the loop leaves their calls to the AI SDK. */
  external: ReadonlySet<string>
  /** The answers this call's prompt gives to a run the wrapper suspended earlier. */
  answers: ApprovalAnswers | undefined
}

/**
 * One call's parts, with what its options say: the caller's own tools, and the answers its prompt gives.
 *
 * @example
 * const call = wrappedCall({ inner, wrappedModel, toolkit, settings, callOptions })
 */
export function wrappedCall(parts: Omit<WrappedCall, 'external' | 'answers'>): WrappedCall {
  const { callOptions } = parts
  // Built whole: on Node 20 a spread copy that gains keys takes a slow path (about a microsecond).
  return {
    inner: parts.inner,
    wrappedModel: parts.wrappedModel,
    toolkit: parts.toolkit,
    settings: parts.settings,
    callOptions,
    external: new Set((callOptions.tools ?? []).map((tool) => tool.name)),
    answers: findApprovalAnswers(callOptions.prompt),
  }
}

/**
 * The loop's input for one wrapped call: its prompt converted back for the inner model, or the
 * suspended run its answers go on with.
 *
 * @example
 * runLoop(loopInput(call, transport, 'generate'))
 */
export function loopInput(
  call: WrappedCall,
  transport: ProviderFormTransport,
  mode: 'generate' | 'stream',
  stop?: AbortSignal,
): LoopInput<SpecMessage> {
  const { answers } = call
  return {
    transport,
    settings: call.settings,
    history: [],
    prompt: answers === undefined ? convertProviderFormPrompt(call.callOptions.prompt) : [],
    toolkit: call.toolkit,
    signal: call.callOptions.abortSignal,
    externalTools: call.external,
    mode,
    // Nothing can resume a run the wrapper suspended on a task: a call that runs as one is waited for.
    waitOnTasks: true,
    ...(stop === undefined ? {} : { stop }),
    // Answers go on with the suspended run: its sealed state holds the transcript the loop had.
    ...(answers === undefined ? {} : { resume: { state: answers.state, approvals: answers.approvals } }),
  }
}
