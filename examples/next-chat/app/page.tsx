import { chatMode, chatStoreLabel } from '@/lib/chat-mode'
import { chooseModel, geminiModelLabel } from '@/lib/model'
import { Chat } from './chat'

// The model label and the chat mode depend on the environment at run time, not at build time.
export const dynamic = 'force-dynamic'

export default function Page() {
  return (
    <Chat
      modelLabel={chooseModel().label}
      geminiLabel={geminiModelLabel()}
      nodeMode={chatMode()}
      nodeStore={chatStoreLabel()}
    />
  )
}
