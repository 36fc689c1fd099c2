package discordtest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// JSON error codes Discord answers with, as listed in Discord's
// documentation of JSON error codes and named in discordgo. The server uses
// these in the "code" field of its error bodies.
const (
	CodeGeneral                 = discordgo.ErrCodeGeneralError
	CodeUnknownChannel          = discordgo.ErrCodeUnknownChannel
	CodeUnknownGuild            = discordgo.ErrCodeUnknownGuild
	CodeUnknownMessage          = discordgo.ErrCodeUnknownMessage
	CodeUnknownWebhook          = discordgo.ErrCodeUnknownWebhook
	CodeUnknownInteraction      = discordgo.ErrCodeUnknownInteraction
	CodeAlreadyAcknowledged     = discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged
	CodeMissingAccess           = discordgo.ErrCodeMissingAccess
	CodeCannotEditOthersMessage = discordgo.ErrCodeCannotEditFromAnotherUser
	CodeEmptyMessage            = discordgo.ErrCodeCannotSendEmptyMessage
	CodeInvalidWebhookToken     = discordgo.ErrCodeInvalidWebhookTokenProvided
	CodeInvalidFormBody         = discordgo.ErrCodeInvalidFormBody
)

// apiError is an error answer in Discord's JSON error shape:
// {"message": ..., "code": ..., "errors": ...}.
type apiError struct {
	status  int
	Code    int    `json:"code"`
	Message string `json:"message"`
	Errors  any    `json:"errors,omitempty"`
}

func (e *apiError) Error() string { return e.Message }

func newAPIError(status, code int, message string) *apiError {
	return &apiError{status: status, Code: code, Message: message}
}

// httpError is the body Discord sends for plain HTTP failures such as an
// unknown route: {"message": "404: Not Found", "code": 0}.
func httpError(status int) *apiError {
	return newAPIError(status, CodeGeneral, strconv.Itoa(status)+": "+http.StatusText(status))
}

var (
	errUnknownInteraction = newAPIError(http.StatusNotFound, CodeUnknownInteraction, "Unknown interaction")
	errAlreadyAcked       = newAPIError(http.StatusBadRequest, CodeAlreadyAcknowledged, "Interaction has already been acknowledged.")
	errInvalidToken       = newAPIError(http.StatusUnauthorized, CodeInvalidWebhookToken, "Invalid Webhook Token")
	errUnknownMessage     = newAPIError(http.StatusNotFound, CodeUnknownMessage, "Unknown Message")
	errUnknownChannel     = newAPIError(http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
	errUnknownGuild       = newAPIError(http.StatusNotFound, CodeUnknownGuild, "Unknown Guild")
	errUnknownWebhook     = newAPIError(http.StatusNotFound, CodeUnknownWebhook, "Unknown Webhook")
	errMissingAccess      = newAPIError(http.StatusForbidden, CodeMissingAccess, "Missing Access")
	errOthersMessage      = newAPIError(http.StatusForbidden, CodeCannotEditOthersMessage, "Cannot edit a message authored by another user")
	errEmptyMessage       = newAPIError(http.StatusBadRequest, CodeEmptyMessage, "Cannot send an empty message")
)

// invalidFormBody builds Discord's 50035 answer, nesting each violation
// under the path of the field it concerns, e.g.
// {"data": {"components": {"0": {"_errors": [...]}}}}.
func invalidFormBody(vs []Violation) *apiError {
	root := map[string]any{}
	for _, v := range vs {
		node := root
		for _, seg := range strings.Split(strings.TrimPrefix(v.Location, "/"), "/") {
			if seg == "" {
				continue
			}
			child, ok := node[seg].(map[string]any)
			if !ok {
				child = map[string]any{}
				node[seg] = child
			}
			node = child
		}
		errs, _ := node["_errors"].([]map[string]string)
		node["_errors"] = append(errs, map[string]string{"code": v.Code, "message": v.Message})
	}
	e := newAPIError(http.StatusBadRequest, CodeInvalidFormBody, "Invalid Form Body")
	e.Errors = root
	return e
}

// attachmentNotFound is Discord's answer to an attachments list whose
// entry n names neither an attachment of the message nor an uploaded
// file. It depends on the message's state, as Unknown Message does, and
// is not recorded as a violation: a bot that kept an attachment another
// process replaced meets it.
func attachmentNotFound(n int) *apiError {
	return invalidFormBody([]Violation{{Location: "/attachments/" + strconv.Itoa(n),
		Code: "ATTACHMENT_NOT_FOUND", Message: "Attachment data not found"}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"message": "500: Internal Server Error", "code": 0}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, e)
}
