import { startScriptedServer } from '/work/main/test/support/scripted-server.js'
import { openaiChatProtocol } from '/work/main/test/support/scripted-openai.js'
const server = await startScriptedServer({
  protocol: openaiChatProtocol,
  script: (request) => {
    const messages = request.body.messages as Array<{ role: string }>
    return messages.at(-1)?.role === 'tool'
      ? { type: 'reply', text: 'Chennai: sunny, 14:00.' }
      : { type: 'reply', toolCalls: [
          { id: 'a', name: 'get_weather', arguments: '{"city":"Chennai"}' },
          { id: 'b', name: 'get_time', arguments: '{"city":"Chennai"}' } ] }
  },
})
// keep only the last few requests in memory
setInterval(() => { server.requests.length = 0 }, 1000)
console.log(server.url)
